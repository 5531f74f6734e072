"""The before/after picture of docs/blender.md, rendered by Blender itself
(Workbench, headless):

    blender -b --factory-startup --python docs/images/blender_render.py -- OUT.png [FRAME ...]

The CMU take 131_01 (Blender's BVH importer) drawn as a stick figure (a
cylinder on each bone, its armature scaled to the girl's leg length), and
girl.glb (Blender's glTF importer) after bpy.ops.ikit.retarget, side by side
at each FRAME (default three of the walk), the frames stacked left to right
in one picture. The add-on zip: $IKIT_BLENDER_ZIP; assets: $IKIT_DATA."""
import math
import os
import sys

import bpy
import numpy as np
from mathutils import Vector

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "blender"))
import blender_util as U  # noqa: E402


def stick_figure(arm, radius, material):
    """A cylinder along each bone of `arm`, parented to the bone (so it moves with the take)."""
    for bone in arm.data.bones:
        if bone.length < 1e-4:
            continue
        bpy.ops.mesh.primitive_cylinder_add(vertices=8, radius=radius, depth=bone.length)
        rod = bpy.context.active_object
        rod.data.materials.append(material)
        rod.parent = arm
        rod.parent_type = "BONE"
        rod.parent_bone = bone.name
        # a child of a bone sits at the bone's tail, Y along the bone: half a bone back, Z turned onto Y
        rod.location = (0.0, -bone.length / 2, 0.0)
        rod.rotation_euler = (math.pi / 2, 0.0, 0.0)


def material(name, rgb):
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = (*rgb, 1.0)
    return mat


def main():
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    out = os.path.abspath(args[0] if args else "blender_retarget.png")
    frames = [int(a) for a in args[1:]] or [120, 160, 200]
    ikit, armature = U.install_addon()
    U.empty_scene()
    girl = U.import_gltf(os.path.join(U.data_dir(), "gltf", "girl.glb"))
    take = U.import_bvh(os.path.join(U.data_dir(), "bvh", "131_01.bvh"))
    result = bpy.ops.ikit.retarget(source=take.name, target=girl.name)
    assert result == {"FINISHED"}, bpy.context.window_manager.ikit_report
    print(bpy.context.window_manager.ikit_report)

    # the take at the girl's size, beside her (both walk along the same line)
    src, tgt = armature.Rig(take, bpy.context.scene), armature.Rig(girl, bpy.context.scene)
    def leg(rig):
        limb = rig.humanoid().limb("left_leg")
        rest = np.asarray(rig.skeleton.fk(rig.skeleton.rest_pose(), root=np.array(rig.obj.matrix_world)))[:, :3, 3]
        return (np.linalg.norm(rest[limb["mid"]] - rest[limb["start"]]) +
                np.linalg.norm(rest[limb["end"]] - rest[limb["mid"]]))

    ratio = leg(tgt) / leg(src)
    take.scale = (ratio, ratio, ratio)
    stick_figure(take, 0.35 / ratio * 0.06, material("take", (0.85, 0.35, 0.2)))
    scene = bpy.context.scene

    def hips_at(obj, bone, frame):
        scene.frame_set(frame)
        bpy.context.view_layer.update()
        return np.array(obj.matrix_world @ obj.pose.bones[bone].head)

    # the walking direction (the girl's hips over the frames shown), and the take a metre behind her on it
    walk = hips_at(girl, "Root", frames[-1]) - hips_at(girl, "Root", frames[0])
    walk[2] = 0.0
    walk /= np.linalg.norm(walk)
    offset = hips_at(girl, "Root", frames[0]) - hips_at(take, "Hips", frames[0]) - 1.0 * walk
    take.location = take.location + Vector((offset[0], offset[1], 0.0))
    bpy.ops.mesh.primitive_plane_add(size=40.0)
    floor = bpy.context.active_object
    floor.data.materials.append(material("floor", (0.8, 0.8, 0.78)))

    scene.render.engine = "BLENDER_WORKBENCH"
    scene.display.shading.light = "STUDIO"
    scene.display.shading.color_type = "MATERIAL"
    scene.display.shading.show_shadows = True
    scene.display.shading.show_cavity = False
    scene.render.resolution_x, scene.render.resolution_y, scene.render.resolution_percentage = 360, 300, 100
    scene.render.film_transparent = False
    scene.view_settings.view_transform = "Standard"
    scene.world = bpy.data.worlds.new("world")
    scene.world.color = (1.0, 1.0, 1.0)
    bpy.ops.object.camera_add()
    camera = bpy.context.active_object
    scene.camera = camera
    camera.data.lens = 50

    tiles = []
    for frame in frames:
        scene.frame_set(frame)
        bpy.context.view_layer.update()
        middle = hips_at(girl, "Root", frame) - 0.5 * walk
        middle[2] = 0.75
        side = np.cross(np.array([0.0, 0.0, 1.0]), walk)
        camera.location = Vector(middle - 4.0 * side + np.array([0.0, 0.0, 0.45]))
        camera.rotation_euler = (Vector(middle) - camera.location).to_track_quat("-Z", "Y").to_euler()
        path = out + ".frame%d.png" % frame
        scene.render.filepath = path
        bpy.ops.render.render(write_still=True)
        image = bpy.data.images.load(path)
        pixels = np.array(image.pixels[:], dtype=np.float32).reshape(image.size[1], image.size[0], 4)
        tiles.append(pixels)
        bpy.data.images.remove(image)
        os.remove(path)
    strip = np.concatenate(tiles, axis=1)
    image = bpy.data.images.new("strip", strip.shape[1], strip.shape[0], alpha=True)
    image.pixels[:] = strip.ravel()
    image.filepath_raw = out
    image.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.render.image_settings.compression = 100
    image.save_render(out, scene=scene)
    print("wrote %s (%dx%d, frames %s)" % (out, strip.shape[1], strip.shape[0], frames))


main()
