#ifndef TRANSHOST_ZEROED_PAGES_H
#define TRANSHOST_ZEROED_PAGES_H
#include <stddef.h>

/// `bytes` of zeroed, readable and writable memory, every page already present (each written
/// once here, so none is ever the shared zero page), or NULL. Release it with munmap(pointer, bytes).
///
/// Each whole 2 MiB the memory spans is asked for as one huge page where the kernel offers
/// them (transparent huge pages, MADV_HUGEPAGE): the kernel then clears and accounts one page
/// instead of 512, about a fifth of the time for memory it has used before (memory a virtual
/// machine has never touched can cost more either way). A raster of a phone's
/// screen at 2x (2.9 MB) gets one huge page and small ones for the rest; no more memory is
/// resident than the bytes asked for, rounded up to a page. Where huge pages are not offered
/// the memory is mapped as before, in small pages.
///
/// The pages are faulted in by writing to them, not with MADV_POPULATE_WRITE or MAP_POPULATE:
/// those clear every page while holding the process's mmap lock, so another thread's mmap or
/// munmap (a second transition rendering beside this one) waits for all of it.
void *th_map_zeroed_pages(size_t bytes);

#endif
