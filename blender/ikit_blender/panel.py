"""The sidebar panel (3D View > Sidebar > ikit): the operators on the
panel's source and target or on the active armature."""
import textwrap

import bpy


class IKIT_PT_panel(bpy.types.Panel):
    bl_label = "ikit"
    bl_idname = "IKIT_PT_panel"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "ikit"

    def draw(self, context):
        layout = self.layout
        scene = context.scene
        box = layout.box()
        box.label(text="Retarget", icon="ARMATURE_DATA")
        box.prop(scene, "ikit_source")
        box.prop(scene, "ikit_target")
        row = box.row()
        row.enabled = scene.ikit_source is not None and scene.ikit_target is not None
        op = row.operator("ikit.retarget", icon="PLAY")
        op.source = scene.ikit_source.name if scene.ikit_source else ""
        op.target = scene.ikit_target.name if scene.ikit_target else ""

        obj = context.active_object
        box = layout.box()
        name = obj.name if obj is not None and obj.type == "ARMATURE" else ""
        box.label(text="Active armature: %s" % (name or "none"), icon="OUTLINER_OB_ARMATURE")
        col = box.column(align=True)
        col.enabled = bool(name)
        col.operator("ikit.clean_footskate", icon="MOD_SMOOTH").armature = name
        col.operator("ikit.fit_keys", icon="IPO_BEZIER").armature = name
        col.operator("ikit.feet_to_ground", icon="SNAP_FACE").armature = name
        col.operator("ikit.walk", icon="MOD_DYNAMICPAINT").armature = name

        message = context.window_manager.ikit_report
        if message:
            # the last operator's message, wrapped to the sidebar's width (about 8 pixels a character)
            width = max(20, int(context.region.width / (8 * context.preferences.system.ui_scale)) - 4)
            col = layout.column(align=True)
            for i, line in enumerate(textwrap.wrap(message, width)[:6]):
                col.label(text=line, icon="INFO" if i == 0 else "BLANK1")


CLASSES = (IKIT_PT_panel,)
