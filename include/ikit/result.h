/* ikit: result codes shared by every layer. */
#ifndef IKIT_RESULT_H
#define IKIT_RESULT_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, message): one list, so the enum and the messages cannot drift. */
#define IK_RESULT_LIST(X)                                                                 \
    X(IK_OK, "ok")                                                                        \
    X(IK_ERR_NULL, "a required pointer is NULL")                                          \
    X(IK_ERR_NONFINITE, "an input holds NaN or an infinite value")                        \
    X(IK_ERR_RANGE, "an index or count is out of range")                                  \
    X(IK_ERR_HIERARCHY, "bad hierarchy: a parent comes after its child or forms a cycle") \
    X(IK_ERR_DEGENERATE, "degenerate geometry: zero-length axis, singular transform")     \
    X(IK_ERR_CAPACITY, "a caller-provided buffer is too small")                           \
    X(IK_ERR_NOT_FOUND, "no joint or item with that name")                                \
    X(IK_ERR_PARSE, "malformed file")                                                     \
    X(IK_ERR_IO, "cannot read or write the file")                                         \
    X(IK_ERR_UNSUPPORTED, "unsupported feature")                                          \
    X(IK_ERR_NO_MEMORY, "out of memory")                                                  \
    X(IK_ERR_NOT_DEFAULTED, "job not made by its _def()")

#define IK_RESULT_ENUM_ITEM(name, message) name,
typedef enum ik_result { IK_RESULT_LIST(IK_RESULT_ENUM_ITEM) IK_RESULT_COUNT } ik_result;
#undef IK_RESULT_ENUM_ITEM

/* The tag a solver job's _def() puts in its `defaulted` field; _run refuses
 * a job without it (IK_ERR_NOT_DEFAULTED), so a zeroed or uninitialised job
 * is an error instead of a silent no-op. Start every job from its _def(). */
#define IK_JOB_DEFAULTED 0x494b4a44u

/* A short English message for a result code; never NULL. */
const char *ik_result_str(ik_result result);

#ifdef __cplusplus
}
#endif
#endif
