/* ikit io: big blocks in 2 MiB pages where Linux offers them (big_block.h). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* posix_memalign, madvise */
#endif
#include "big_block.h"

#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define BIG_PAGE ((size_t)2 << 20)

void *big_block_alloc(size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *block = NULL;
    if (size < 4 * BIG_PAGE) return malloc(size);
    if (posix_memalign(&block, BIG_PAGE, size) != 0) return NULL;
    madvise(block, size, MADV_HUGEPAGE); /* only advice: without it, ordinary pages */
    return block;
#else
    return malloc(size);
#endif
}
