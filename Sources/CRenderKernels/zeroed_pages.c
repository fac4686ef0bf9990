#define _GNU_SOURCE
#include "zeroed_pages.h"
#include <stdint.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { HUGE = 2 << 20 };

void *th_map_zeroed_pages(size_t bytes) {
    if (bytes == 0) return NULL;
    if (bytes >= HUGE) {
        /* A mapping one huge page longer, trimmed to start on a 2 MiB boundary. */
        uint8_t *wide = mmap(0, bytes + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (wide != MAP_FAILED) {
            uint8_t *start = (uint8_t *)(((uintptr_t)wide + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
            size_t head = (size_t)(start - wide), tail = HUGE - head;
            if (head) munmap(wide, head);
            if (tail) munmap(start + bytes, tail);
            (void)madvise(start, bytes, MADV_HUGEPAGE);
            if (madvise(start, bytes, MADV_POPULATE_WRITE) == 0) return start;
            /* Older kernels: write a byte of each page. */
            for (size_t o = 0; o < bytes; o += 4096) ((volatile uint8_t *)start)[o] = 0;
            return start;
        }
    }
    void *p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
