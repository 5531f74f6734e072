"""Errors: every failure of a library call is an IkitError carrying the
library's own message (ik_result_str, or a reader's ik_error with the
place in the file)."""
from ._ikit import ffi, lib

RESULT_NAMES = [
    "IK_OK", "IK_ERR_NULL", "IK_ERR_NONFINITE", "IK_ERR_RANGE", "IK_ERR_HIERARCHY", "IK_ERR_DEGENERATE",
    "IK_ERR_CAPACITY", "IK_ERR_NOT_FOUND", "IK_ERR_PARSE", "IK_ERR_IO", "IK_ERR_UNSUPPORTED",
    "IK_ERR_NO_MEMORY", "IK_ERR_NOT_DEFAULTED",
]
_NAME_OF = {getattr(lib, name): name for name in RESULT_NAMES}


class IkitError(Exception):
    """A library call failed. `code` is the ik_result name ("IK_ERR_NONFINITE"),
    `result` its value; str() is "<what>: <the library's message>"."""

    def __init__(self, what, result, message=None):
        self.result = int(result)
        self.code = _NAME_OF.get(self.result, "IK_ERR_%d" % self.result)
        self.library_message = message if message is not None else result_message(result)
        super().__init__("%s: %s" % (what, self.library_message) if what else self.library_message)


class IkitIoError(IkitError):
    """A reader or writer failed: `line`, `column` (1-based, 0 unknown),
    `offset` (byte offset, -1 unknown) and `json_path` say where."""

    def __init__(self, what, result, error):
        self.line = int(error.line)
        self.column = int(error.column)
        self.offset = int(error.offset)
        self.json_path = ffi.string(error.path).decode("utf-8", "replace")
        message = ffi.string(error.message).decode("utf-8", "replace") or result_message(result)
        if self.json_path and self.json_path not in message:
            message = "%s: %s" % (self.json_path, message)
        super().__init__(what, result, message)


def result_message(result):
    return ffi.string(lib.ik_result_str(result)).decode()


def check(result, what):
    """Raise IkitError unless `result` is IK_OK."""
    if result != lib.IK_OK:
        raise IkitError(what, result)


def check_io(result, what, error):
    """Raise IkitIoError with the reader's place and message unless IK_OK."""
    if result != lib.IK_OK:
        raise IkitIoError(what, result, error)


def check_job(result, what, field_error):
    """As check, naming the job field a chain solver reported (chain_base.h)."""
    if result == lib.IK_OK:
        return
    message = result_message(result)
    field = ffi.string(field_error.path).decode()
    if field:
        if field_error.index >= 0:
            field += "[%d]" % field_error.index
        message = "%s (field %s)" % (message, field)
    raise IkitError(what, result, message)
