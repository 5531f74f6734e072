#include "ikc.h"
int ikc_solve(int argc, char **argv) { (void)argc; (void)argv; return 1; }
