#define _GNU_SOURCE
#include "zeroed_pages.h"
#include <stdint.h>
#include <sys/mman.h>

enum { HUGE = 2 << 20 };

/* Writes a byte of each page, so each is faulted in as a private zeroed page at once (never
   the shared zero page, which a later write would replace, flushing every core's TLB). Not
   MADV_POPULATE_WRITE or MAP_POPULATE: those hold the process's mmap lock while they clear
   every page, and another rendering thread's mmap or munmap waits for all of it (the kernel
   handles a page fault under a lock of the one mapping instead). */
static void touch(uint8_t *p, size_t bytes) {
    for (size_t o = 0; o < bytes; o += 4096) ((volatile uint8_t *)p)[o] = 0;
}

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
            touch(start, bytes);
            return start;
        }
    }
    void *p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    touch(p, bytes);
    return p;
}
