/* What the Python package binds: every public header of ikit and the
 * generated version header. build_ikit.py runs the C preprocessor over
 * this file and hands the declarations of these headers to cffi
 * (cdef_from_headers.py), and the extension includes it, so the binding is
 * the headers themselves. */
#ifndef IKPY_IKIT_PYTHON_H
#define IKPY_IKIT_PYTHON_H

#include <ikit/ikit.h>
#include <ikit/version.h>

#endif
