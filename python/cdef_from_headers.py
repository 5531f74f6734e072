"""The cffi declarations of ikit's public C API, made from the headers
themselves at build time, so the Python binding cannot drift from them.

The C preprocessor (`cc -E -dD`) reads a small header that includes what the
package binds (python/csrc/ikit_python.h), with the include path and the
IKIT_DOUBLE define of the build, so every X-macro list, array size and
ik_real is expanded exactly as the C compiler sees it. Its line markers say
which file each line came from: the declarations of ikit's own headers (and
the package's csrc/ headers) are kept, the C library's are dropped (cffi
knows size_t, FILE and the <stdint.h> types itself). What cffi's parser does
not take is rewritten: a static inline function becomes its prototype (cffi's
API mode compiles a call to it), __attribute__((...)) goes, and so do
declarations over a va_list; an array size left as an expression of numbers
(a macro's `A > B ? A : B`) becomes its value. Object-like macros of the
kept headers come across as constants: integer ones as `#define NAME ...`
(the C compiler supplies the value), floating ones as
`static const double NAME;`.

Used by build_ikit.py (the build) and python/tests/test_cdef.py (which
checks the built package against the headers it is run beside)."""
import os
import re
import subprocess
from pathlib import Path

# A line marker of the preprocessor's output: # LINE "FILE" FLAGS.
_MARKER = re.compile(r'^#\s+\d+\s+"((?:[^"\\]|\\.)*)"')
_DEFINE = re.compile(r"^#define\s+([A-Za-z_]\w*)(\(?)\s*(.*)$")
_FLOAT_LITERAL = re.compile(r"(?<![\w.])(\d+\.\d*|\.\d+|\d+[eE][-+]?\d+)([eE][-+]?\d+)?[fFlL]?(?![\w.])")
_INT_LITERAL = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)[uUlL]*(?![\w.])")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_CAST_TYPES = {"int", "unsigned", "long", "short", "char", "signed", "size_t", "ik_real", "float", "double"}


def write_version_header(root, out_dir, double):
    """OUT_DIR/ikit/version.h as CMake makes it from src/version.h.in (left
    alone when it already says the same)."""
    text = (Path(root) / "CMakeLists.txt").read_text()
    major, minor, patch = re.search(r"project\(ikit VERSION ([0-9]+)\.([0-9]+)\.([0-9]+)", text).groups()
    values = {
        "PROJECT_VERSION_MAJOR": major,
        "PROJECT_VERSION_MINOR": minor,
        "PROJECT_VERSION_PATCH": patch,
        "PROJECT_VERSION": "%s.%s.%s" % (major, minor, patch),
        "IKIT_BUILT_DOUBLE": "1" if double else "0",
    }
    template = (Path(root) / "src" / "version.h.in").read_text()
    header = re.sub(r"@([A-Z_]+)@", lambda m: values[m.group(1)], template)
    target = Path(out_dir) / "ikit" / "version.h"
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_text() != header:
        target.write_text(header)


def preprocess(header, include_dirs, defines=(), compiler=None):
    """The output of `cc -E -dD` on `header` (macros kept, in place)."""
    cc = compiler or os.environ.get("CC") or "cc"
    command = cc.split() + ["-E", "-dD", "-std=c99"]
    command += ["-I" + str(d) for d in include_dirs]
    command += ["-D%s=%s" % (name, value) for name, value in defines]
    command.append(str(header))
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(command), done.stderr))
    return done.stdout


def _owned(path, roots):
    try:
        resolved = Path(path).resolve()
    except (OSError, ValueError):
        return False
    return any(root == resolved.parent or root in resolved.parents for root in roots)


def split_output(text, roots):
    """The preprocessed lines of the files under `roots`: (declaration text,
    [(name, body) of object-like #defines in order])."""
    roots = [Path(r).resolve() for r in roots]
    keep, lines, defines = False, [], []
    for line in text.splitlines():
        marker = _MARKER.match(line)
        if marker:
            keep = _owned(marker.group(1), roots)
            continue
        if not keep:
            continue
        if line.startswith("#"):
            define = _DEFINE.match(line)
            if define and not define.group(2) and define.group(3).strip():
                defines.append((define.group(1), define.group(3).strip()))
            continue
        lines.append(line)
    return "\n".join(lines), defines


def _skip_quoted(text, i):
    """Index past the string or character literal starting at text[i]."""
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _matching(text, i, open_char, close_char):
    """Index past the bracket closing the one at text[i]."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_quoted(text, i)
            continue
        if c == open_char:
            depth += 1
        elif c == close_char:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced %r in the preprocessed headers" % open_char)


def _strip_attributes(text):
    out, i = [], 0
    for match in re.finditer(r"__attribute__\s*\(", text):
        if match.start() < i:
            continue
        out.append(text[i:match.start()])
        i = _matching(text, match.end() - 1, "(", ")")
    out.append(text[i:])
    return "".join(out)


def declarations(text):
    """The top-level declarations of preprocessed C text, each ending in ';',
    a function defined there (static inline) as its prototype."""
    text = _strip_attributes(text)
    items, start, i = [], 0, 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_quoted(text, i)
        elif c == "{":
            body_end = _matching(text, i, "{", "}")
            head = text[start:i].strip()
            if head.endswith(")"):  # a static inline function: its prototype, as cffi calls it
                head = re.sub(r"^((static|inline|__inline__|__inline)\s+)+", "", " ".join(head.split()))
                items.append(head + ";")
                start = i = body_end
                continue
            i = body_end
        elif c == ";":
            item = " ".join(text[start:i + 1].split())
            if item != ";":
                items.append(item)
            start = i = i + 1
        else:
            i += 1
    if text[start:].strip():
        raise ValueError("the headers end inside a declaration: %r" % text[start:].strip()[:200])
    return items


_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)"
                    r"|(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>&|^~!?:()]))")
_LEVELS = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", "<=", ">", ">="), ("<<", ">>"), ("+", "-"),
           ("*", "/", "%")]
_APPLY = {
    "||": lambda a, b: int(bool(a) or bool(b)), "&&": lambda a, b: int(bool(a) and bool(b)),
    "|": lambda a, b: a | b, "^": lambda a, b: a ^ b, "&": lambda a, b: a & b,
    "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b), ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b),
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "*": lambda a, b: a * b, "/": lambda a, b: int(a / b), "%": lambda a, b: a - b * int(a / b),
}


def evaluate(expression):
    """The value of an integer constant expression of literals (a macro's
    array size as the preprocessor leaves it: `64 > 8 * 6 ? 64 : 8 * 6`),
    which cffi's parser takes only when plain; None for anything else (names,
    sizeof)."""
    tokens, position = [], 0
    while expression[position:].strip():
        match = _TOKEN.match(expression, position)
        if not match:
            return None
        tokens.append(int(match.group(1), 0) if match.group(1) else match.group(2) or match.group(3))
        position = match.end()
    tokens.append(None)
    at = [0]

    def take():
        at[0] += 1
        return tokens[at[0] - 1]

    def unary():
        token = take()
        if isinstance(token, int):
            return token
        if token == "(":
            while tokens[at[0]] in _CAST_TYPES:  # a cast to an integer type
                at[0] += 1
            if tokens[at[0] - 1] in _CAST_TYPES and tokens[at[0]] == ")":
                at[0] += 1
                return unary()
            value = ternary()
            if take() != ")":
                raise ValueError
            return value
        operand = {"-": lambda v: -v, "+": lambda v: v, "~": lambda v: ~v, "!": lambda v: int(not v)}.get(token)
        if operand is None:
            raise ValueError
        return operand(unary())

    def binary(level):
        if level == len(_LEVELS):
            return unary()
        value = binary(level + 1)
        while tokens[at[0]] in _LEVELS[level]:
            value = _APPLY[take()](value, binary(level + 1))
        return value

    def ternary():
        condition = binary(0)
        if tokens[at[0]] != "?":
            return condition
        at[0] += 1
        chosen = ternary()
        if take() != ":":
            raise ValueError
        other = ternary()
        return chosen if condition else other

    try:
        value = ternary()
        return value if tokens[at[0]] is None else None
    except (ValueError, ZeroDivisionError, IndexError, TypeError):
        return None


def _fold_array_sizes(item):
    """An array size cffi cannot read (anything but a number or a name) as
    its value."""
    def fold(match):
        size = match.group(1).strip()
        if re.fullmatch(r"\d+|[A-Za-z_]\w*|\.\.\.|", size):
            return match.group(0)
        value = evaluate(size)
        return "[%d]" % value if value is not None else match.group(0)
    return re.sub(r"\[([^\[\]]*)\]", fold, item)


def _constant_kind(body, integers):
    """'int' for an integer constant expression, 'double' for a floating
    one, None for anything else (strings, names of functions or types)."""
    if '"' in body or "'" in body:
        return None
    floating = bool(_FLOAT_LITERAL.search(body))
    rest = _INT_LITERAL.sub(" ", _FLOAT_LITERAL.sub(" ", body))
    for name in _IDENTIFIER.findall(rest):
        if name not in integers and name not in _CAST_TYPES:
            return None
    if not re.fullmatch(r"[\w\s()+\-*/%<>|&^~]*", rest):
        return None
    if not floating and "ik_real" in rest:
        floating = True
    return "double" if floating else "int"


def _enum_constants(items):
    names = set()
    for item in items:
        if re.match(r"(typedef\s+)?enum\b", item):
            body = item[item.find("{") + 1:item.rfind("}")]
            names.update(part.split("=")[0].strip() for part in body.split(",") if part.strip())
    return names


def cdef_text(header, include_dirs, roots, defines=(), compiler=None):
    """The cffi cdef of `header` as the C compiler sees it with `defines`:
    declarations and constants of the files under `roots`."""
    text, macros = split_output(preprocess(header, include_dirs, defines, compiler), roots)
    items = [_fold_array_sizes(item) for item in declarations(text) if not re.search(r"\bva_list\b", item)]
    integers = _enum_constants(items)
    constants = []
    for name, body in macros:
        kind = _constant_kind(body, integers)
        if kind == "int":
            integers.add(name)
            constants.append("#define %s ..." % name)
        elif kind == "double":
            constants.append("static const double %s;" % name)
    return "\n".join(items + constants) + "\n"


def package_cdef(root, generated, double, compiler=None):
    """What the Python package binds, for the repository at `root`: its
    cdef (csrc/ikit_python.h over include/ikit, the version header written
    into `generated` and csrc/), the include folders and the defines of the
    extension's compile."""
    root, generated = Path(root), Path(generated)
    write_version_header(root, generated, double)
    csrc = root / "python" / "csrc"
    include_dirs = [root / "include", generated, csrc]
    defines = [("IKIT_DOUBLE", "1")] if double else []
    cdef = cdef_text(csrc / "ikit_python.h", include_dirs, [root / "include" / "ikit", generated / "ikit", csrc],
                     defines, compiler)
    return cdef, include_dirs, defines
