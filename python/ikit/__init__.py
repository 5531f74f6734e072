"""ikit: inverse kinematics for skeletons, over the C library's public API.

Poses are numpy arrays of the library's own memory layout and scalar type
(`real_dtype`: float32, or float64 when built with IKIT_DOUBLE=1), passed to
C without copies; see ikit.arrays for the layouts. Every failure raises
IkitError with the library's message."""
from ._ikit import ffi as _ffi, lib as _lib
from .arrays import (POSE_ROTATION, POSE_SCALE, POSE_TRANSLATION, built_double, new_matrices, new_pose,
                     real_dtype)
from .assets import Asset, load
from .cell import Cell, CellReport, load_cell
from .errors import IkitError, IkitIoError
from .ground import Ground
from .humanoid import BODY_JOINTS, EFFECTORS, LIMBS, ROLES, Humanoid
from .key_fit import FittedClip, decimate, fit
from .limits import Limit
from .motion import CONTACT_POINTS, bake, clean, foot_contacts, skating, stance_clean, walk, walk_frame
from .planar import planar_chain, planar_chain_fk
from .retarget import retarget
from .skeleton import Skeleton
from .solvers import aim, ccd, fabrik, jacobian, look_at_chain, two_bone, two_bone_batch
from .urdf import Robot, RobotPath, UrdfChain, load_robot, load_urdf_chain

__version__ = _ffi.string(_lib.ik_version()).decode()

__all__ = [
    "Asset", "BODY_JOINTS", "CONTACT_POINTS", "Cell", "CellReport", "EFFECTORS", "FittedClip", "Ground", "Humanoid", "IkitError", "IkitIoError", "LIMBS", "Limit", "POSE_ROTATION", "POSE_SCALE",
    "POSE_TRANSLATION", "ROLES", "Robot", "RobotPath", "Skeleton", "UrdfChain", "aim", "bake", "built_double", "ccd", "clean", "decimate", "fit", "foot_contacts", "planar_chain",
    "planar_chain_fk", "fabrik", "jacobian", "load", "load_cell", "load_robot", "load_urdf_chain", "look_at_chain", "new_matrices",
    "new_pose", "real_dtype", "retarget", "skating", "stance_clean", "two_bone", "two_bone_batch", "walk", "walk_frame",
]
