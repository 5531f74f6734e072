"""ikit for Blender: retargeting, footskate clean-up, key fitting, feet on
the ground and a procedural walk on Blender's own armatures and actions,
through the ikit Python package over the C library (docs/blender.md)."""

bl_info = {
    "name": "ikit",
    "author": "ikit",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "3D View > Sidebar > ikit",
    "description": "Retarget, clean footskate, fit keys, feet to ground and walk with the ikit IK library",
    "category": "Animation",
}

import bpy  # noqa: E402
from bpy.props import PointerProperty, StringProperty  # noqa: E402

from . import operators, panel  # noqa: E402

_CLASSES = operators.CLASSES + panel.CLASSES


def _is_armature(_scene, obj):
    return obj.type == "ARMATURE"


def register():
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.ikit_source = PointerProperty(type=bpy.types.Object, poll=_is_armature, name="Source",
                                                  description="The armature whose action is the take")
    bpy.types.Scene.ikit_target = PointerProperty(type=bpy.types.Object, poll=_is_armature, name="Target",
                                                  description="The armature that plays it")
    bpy.types.WindowManager.ikit_report = StringProperty(name="ikit", description="The last operator's message")


def unregister():
    del bpy.types.WindowManager.ikit_report
    del bpy.types.Scene.ikit_target
    del bpy.types.Scene.ikit_source
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
