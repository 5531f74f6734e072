/* The playground's default chain, examples/tail.chain, found from this
 * header's own place in the source tree and loaded into the page's glue
 * (web/ikit_web.h) as the page loads it; shared by test_web_glue and
 * bench_web. */
#ifndef IKIT_TEST_WEB_TAIL_H
#define IKIT_TEST_WEB_TAIL_H

#include <stdio.h>
#include <string.h>

#include "../../web/ikit_web.h"

/* 0 when loaded; -1 when the file is missing, else ikw_chain_load's code. */
static inline int web_load_tail(void) {
    char path[1024];
    const char *here = __FILE__, *cut = strstr(here, "tests/support/web_tail.h");
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%.*sexamples/tail.chain", cut ? (int)(cut - here) : 0, here);
    f = fopen(path, "rb");
    if (!f) return -1;
    n = fread(ikw_text_buffer(), 1, (size_t)ikw_text_capacity(), f);
    fclose(f);
    return ikw_chain_load((int)n);
}

#endif
