/* The library's version, from the generated <ikit/version.h>. */
#include <ikit/version.h>

const char *ik_version(void) { return IK_VERSION_STRING; }
