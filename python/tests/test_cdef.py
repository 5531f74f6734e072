"""The binding is the headers: the declarations the package was built with
(made by python/cdef_from_headers.py from the public headers at build time)
compared, struct field by struct field, enum value by enum value and
function by function, with those the headers beside these tests give now.
A header that changes a field and a package that does not follow fail here,
with the field named."""
import importlib.util
import re
import shutil
from pathlib import Path

import pytest
from cffi import FFI

from ikit._ikit import ffi as built_ffi, lib

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("cdef_from_headers", ROOT / "python" / "cdef_from_headers.py")
cdef_from_headers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cdef_from_headers)

DOUBLE = bool(lib.IK_BUILT_DOUBLE)


def header_ffi(root, tmp_path):
    """An FFI of the cdef that the headers under `root` give for the built
    package's scalar type (parsed only, laid out by cffi), and the cdef."""
    cdef, _, _ = cdef_from_headers.package_cdef(root, tmp_path / "generated", DOUBLE)
    parsed = FFI()
    parsed.cdef(cdef)
    return parsed, cdef


def _declared(parsed):
    """(kind, name, ctype) of every typedef, struct, union and function the
    parsed cdef declares. cffi lists types publicly (list_types) but not
    functions, and typeof() re-parses the whole cdef for each name: read
    its parser's table instead."""
    with parsed._lock:
        # typedefs first, so a typedef'd struct is named as C code names it
        for key, (tp, _) in sorted(parsed._parser._declarations.items(), key=lambda d: (d[0][:8] != "typedef ", d[0])):
            kind, _, name = key.partition(" ")
            if kind in ("typedef", "struct", "union", "function"):
                yield kind, name, parsed._get_cached_btype(tp)


def _c_name(name):
    """A C type's name without struct/union/enum (the compiled FFI spells a
    typedef's struct "struct ik_mat4", the parsed one "ik_mat4")."""
    return re.sub(r"\b(struct|union|enum) ", "", name)


def _compare_struct(name, want, have):
    problems = []
    if want.kind != have.kind:
        return ["%s: a %s in the headers, a %s in the binding" % (name, want.kind, have.kind)]
    want_fields, have_fields = dict(want.fields or []), dict(have.fields or [])
    for field, spec in want.fields or []:
        if field not in have_fields:
            problems.append("%s: field %r (%s) is in the headers, not in the binding" % (name, field, spec.type.cname))
            continue
        other = have_fields[field]
        if _c_name(spec.type.cname) != _c_name(other.type.cname):
            problems.append("%s.%s: %s in the headers, %s in the binding" % (name, field, spec.type.cname,
                                                                            other.type.cname))
        elif spec.offset != other.offset:
            problems.append("%s.%s: at byte %d in the headers, %d in the binding" % (name, field, spec.offset,
                                                                                   other.offset))
    for field, spec in have.fields or []:
        if field not in want_fields:
            problems.append("%s: field %r (%s) is in the binding, not in the headers" % (name, field, spec.type.cname))
    if not problems and [f for f, _ in want.fields or []] != [f for f, _ in have.fields or []]:
        problems.append("%s: fields in another order in the binding" % name)
    return problems


def differences(parsed, built, built_lib):
    """Every way the built binding differs from the parsed headers, one
    message each (empty when they agree)."""
    problems, seen = [], set()
    for kind, name, want in _declared(parsed):
        if kind == "function":
            if not hasattr(built_lib, name):
                problems.append("function %s is in the headers, not in the binding" % name)
            elif _c_name(built.typeof(getattr(built_lib, name)).cname) != _c_name(want.cname):
                problems.append("function %s: %s in the headers, %s in the binding" % (
                    name, want.cname, built.typeof(getattr(built_lib, name)).cname))
            continue
        c_name = name if kind == "typedef" else "%s %s" % (kind, name)
        if want.kind in ("struct", "union"):
            if want.cname in seen:  # a struct and its typedef: once
                continue
            seen.add(want.cname)
        try:
            have = built.typeof(c_name)
        except (built.error, KeyError):
            problems.append("%s is in the headers, not in the binding" % c_name)
            continue
        if want.kind in ("struct", "union"):
            found = _compare_struct(c_name, want, have)
            if not found and want.fields is not None and parsed.sizeof(want) != built.sizeof(have):
                found.append("%s: %d bytes in the headers, %d in the binding" % (c_name, parsed.sizeof(want),
                                                                                built.sizeof(have)))
            problems += found
        elif want.kind == "enum":
            if want.relements != have.relements:
                problems.append("%s: values %s in the headers, %s in the binding" % (c_name, want.relements,
                                                                                   have.relements))
        elif _c_name(want.cname) != _c_name(have.cname):
            problems.append("%s: %s in the headers, %s in the binding" % (c_name, want.cname, have.cname))
    return problems


def test_binding_equals_headers(tmp_path):
    parsed, cdef = header_ffi(ROOT, tmp_path)
    assert differences(parsed, built_ffi, lib) == []
    # the header's ik_real, and a sample of what the package's Python uses
    assert parsed.sizeof("ik_real") == built_ffi.sizeof("ik_real") == (8 if DOUBLE else 4)
    for name in ("ik_two_bone_run", "ik_foot_metre", "ik_v3", "IK_FOOT_CONTACT_POINTS", "IK_ROLE_COUNT",
                 "IK_JACOBIAN_MAX_AXES", "IK_PI", "IK_BUILT_DOUBLE"):
        assert hasattr(lib, name), name
    assert sum(kind == "function" for kind, _, _ in _declared(parsed)) > 200


def test_constants_come_across(tmp_path):
    _, cdef = header_ffi(ROOT, tmp_path)
    assert "#define IK_ROBOT_MAX_JOINTS ..." in cdef
    assert "static const double IK_REAL_EPSILON;" in cdef
    assert lib.IK_REAL_EPSILON == (2.220446049250313e-16 if DOUBLE else pytest.approx(1.1920929e-7, rel=1e-7))
    assert lib.IK_PI == pytest.approx(3.141592653589793, rel=1e-7)
    assert lib.IK_FOOT_CONTACT_POINTS == 4 and lib.IK_JACOBIAN_MAX_AXES == 3
    assert lib.IK_JOB_DEFAULTED == 0x494B4A44


def _edited_copy(tmp_path, header, old, new):
    """A copy of the repository's headers, csrc and version template with
    one header's text `old` replaced by `new`."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "include", copy / "include")
    shutil.copytree(ROOT / "python" / "csrc", copy / "python" / "csrc")
    (copy / "src").mkdir()
    shutil.copy(ROOT / "src" / "version.h.in", copy / "src" / "version.h.in")
    shutil.copy(ROOT / "CMakeLists.txt", copy / "CMakeLists.txt")
    path = copy / "include" / "ikit" / header
    text = path.read_text()
    assert old in text, "%s no longer has %r: update the test" % (header, old)
    path.write_text(text.replace(old, new, 1))
    return copy


@pytest.mark.parametrize("header, old, new, message", [
    ("two_bone.h", "ik_real soften;", "ik_real soften;\n    ik_real stiffness;",
     "ik_two_bone: field 'stiffness' (%s) is in the headers, not in the binding"),
    ("take.h", "int frame_count;", "long frame_count;", "ik_take.frame_count: long in the headers, int in the binding"),
    ("clip.h", "IK_INTERP_STEP,", "IK_INTERP_STEP, IK_INTERP_SMOOTH,", "ik_interpolation: values"),
    ("aim.h", "ik_result ik_aim_run(const ik_aim *job);", "ik_result ik_aim_run(const ik_aim *job, int passes);",
     "function ik_aim_run: ik_result(*)(ik_aim *, int) in the headers"),
])
def test_a_changed_header_is_caught(tmp_path, header, old, new, message):
    """Had the binding been written by hand, each of these header edits
    would leave it behind; the comparison names the change."""
    parsed, _ = header_ffi(_edited_copy(tmp_path, header, old, new), tmp_path)
    problems = differences(parsed, built_ffi, lib)
    expected = message % ("double" if DOUBLE else "float") if "%s" in message else message
    assert any(p.startswith(expected) for p in problems), problems


def test_array_sizes_folded():
    """A macro's size the preprocessor leaves as an expression cffi cannot
    read (ik_robot_protocol_answer's q) becomes its value; names and
    sizeof stay for cffi and the compiler."""
    evaluate = cdef_from_headers.evaluate
    assert evaluate("64 > 8 * 6 ? 64 : 8 * 6") == 64 and evaluate("4 > 8 * 6 ? 4 : 8 * 6") == 48
    assert evaluate("(2048UL * 1024UL * 1024UL)") == 1 << 31 and evaluate("(int)(3 + 4) * 2") == 14
    assert evaluate("0 ? 1 : 0 ? 2 : 3") == 3 and evaluate("-7 / 2") == -3 and evaluate("!0 && 1 << 2 | 1") == 1
    assert evaluate("sizeof(int)") is None and evaluate("IK_ROLE_COUNT + 1") is None and evaluate("(3") is None
    folded = cdef_from_headers._fold_array_sizes("int a[2 * 3]; int b[IK_X]; int c[4];")
    assert folded == "int a[6]; int b[IK_X]; int c[4];"
