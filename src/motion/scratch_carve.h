/* Carving a job's arrays out of the caller's scratch (internal): each array
 * starts on a SCRATCH_ALIGN-byte boundary, offsets counted from the
 * scratch's first aligned byte, so a job asks SCRATCH_ALIGN bytes more
 * than its layout to allow any start address. */
#ifndef IKIT_SCRATCH_CARVE_H
#define IKIT_SCRATCH_CARVE_H

#include <stddef.h>

#define SCRATCH_ALIGN 16

/* The next array of `bytes`: its offset, rounded up to SCRATCH_ALIGN; *at
 * moves past it. */
static inline size_t scratch_carve(size_t *at, size_t bytes) {
    size_t start = (*at + SCRATCH_ALIGN - 1) / SCRATCH_ALIGN * SCRATCH_ALIGN;
    *at = start + bytes;
    return start;
}

/* The scratch's first aligned byte. */
static inline char *scratch_base(void *scratch) {
    return (char *)scratch + (SCRATCH_ALIGN - (size_t)scratch % SCRATCH_ALIGN) % SCRATCH_ALIGN;
}

#endif
