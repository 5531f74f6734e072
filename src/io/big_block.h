/* ikit io, private: memory for blocks of tens of megabytes that are written
 * once from start to end (a document's text, its values, the text written).
 * Not installed. */
#ifndef IKIT_IO_BIG_BLOCK_H
#define IKIT_IO_BIG_BLOCK_H

#include <stddef.h>

/* Like malloc (free it with free; realloc works on it), but a block of
 * 8 MiB or more asks for 2 MiB pages where Linux offers them (madvise):
 * the kernel faults fresh memory in on first touch, a 4 KiB page at a time,
 * which in a virtual machine was 40 % of writing a posed 100,000-joint rig. */
void *big_block_alloc(size_t size);

#endif
