"""The picture of the add-on's panel in docs/blender.md: Blender's own
window, drawn by Blender on a virtual display (its interface cannot be
drawn with -b), the 3D view's sidebar on the ikit tab after a retarget:

    xvfb-run -a -s "-screen 0 1600x1000x24" blender --factory-startup --enable-event-simulate \\
        --python docs/images/blender_panel.py -- OUT.png

The scene: girl.glb and the CMU take 131_01 through Blender's importers,
picked as the panel's source and target, retargeted by the panel's button
operator. The sidebar region is cut out of a screenshot of the 3D view.
The add-on zip: $IKIT_BLENDER_ZIP; assets: $IKIT_DATA."""
import os
import sys

import bpy
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "blender"))
import blender_util as U  # noqa: E402

ARGS = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
OUT = os.path.abspath(ARGS[0] if ARGS else "blender_panel.png")
STATE = {"step": 0}


def view3d():
    window = bpy.context.window_manager.windows[0]
    for area in window.screen.areas:
        if area.type == "VIEW_3D":
            return window, area
    raise RuntimeError("no 3D view")


def setup():
    U.install_addon()
    U.patch_importers()
    # the startup scene's cube, camera and light out of the way
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    girl = U.import_gltf(os.path.join(U.data_dir(), "gltf", "girl.glb"))
    take = U.import_bvh(os.path.join(U.data_dir(), "bvh", "131_01.bvh"))
    scene = bpy.context.scene
    scene.ikit_source, scene.ikit_target = take, girl
    bpy.ops.ikit.retarget(source=take.name, target=girl.name)
    bpy.context.view_layer.objects.active = girl
    girl.select_set(True)
    scene.frame_set(160)
    window, area = view3d()
    space = area.spaces.active
    space.show_region_ui = True
    space.shading.type = "SOLID"
    region = [r for r in area.regions if r.type == "WINDOW"][0]
    with bpy.context.temp_override(window=window, area=area, region=region):
        bpy.ops.view3d.view_all()


def ikit_tab():
    """Where a click picks the ikit tab: Blender 3.4's Python cannot pick a
    sidebar tab, so the picture is made as a user would (Blender started
    with --enable-event-simulate). The tabs run down the region's right
    edge: Item, Tool, View, then ikit's (found on the picture)."""
    window, area = view3d()
    ui = [r for r in area.regions if r.type == "UI"][0]
    return window, ui.x + ui.width - 10, ui.y + ui.height - 340


def pointer_to_tab():
    window, x, y = ikit_tab()
    window.event_simulate(type="MOUSEMOVE", value="NOTHING", x=x - 60, y=y)
    window.event_simulate(type="MOUSEMOVE", value="NOTHING", x=x, y=y)


def press_tab():
    window, x, y = ikit_tab()
    window.event_simulate(type="LEFTMOUSE", value="PRESS", x=x, y=y)
    # and, should the click not take, Ctrl+wheel over the sidebar steps through its tabs
    for _ in range(3):
        window.event_simulate(type="WHEELDOWNMOUSE", value="PRESS", x=x - 100, y=y, ctrl=True)


def release_tab():
    window, x, y = ikit_tab()
    window.event_simulate(type="LEFTMOUSE", value="RELEASE", x=x, y=y)
    # the pointer away from the panel again (no highlighted button in the picture)
    window.event_simulate(type="MOUSEMOVE", value="NOTHING", x=40, y=40)


def shoot():
    window, area = view3d()
    whole = OUT + ".area.png"
    with bpy.context.temp_override(window=window, area=area):
        bpy.ops.screen.screenshot_area(filepath=whole)
    image = bpy.data.images.load(whole)
    pixels = np.array(image.pixels[:], dtype=np.float32).reshape(image.size[1], image.size[0], 4)
    bpy.data.images.remove(image)
    os.remove(whole)
    ui = [r for r in area.regions if r.type == "UI"][0]
    # the region's place inside the area (pixels from the area's lower left corner), its top half
    x0, y0 = ui.x - area.x, ui.y - area.y
    crop = pixels[y0 + ui.height - 430:y0 + ui.height, x0:x0 + ui.width]
    out = bpy.data.images.new("panel", crop.shape[1], crop.shape[0])
    out.pixels[:] = crop.ravel()
    out.filepath_raw = OUT
    out.file_format = "PNG"
    out.save()
    print("wrote %s (%dx%d)" % (OUT, crop.shape[1], crop.shape[0]))


def tick():
    """Steps half a second apart, so the window has handled and drawn what the last one did."""
    step = STATE["step"]
    STATE["step"] += 1
    try:
        steps = {0: setup, 2: pointer_to_tab, 3: press_tab, 4: release_tab, 6: shoot}
        if step in steps:
            steps[step]()
        elif step > max(steps):
            bpy.ops.wm.quit_blender()
            return None
    except Exception as e:
        print("FAILED: %s: %s" % (type(e).__name__, e))
        bpy.ops.wm.quit_blender()
        return None
    return 0.5


bpy.app.timers.register(tick, first_interval=1.0)
