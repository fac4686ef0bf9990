#define _GNU_SOURCE
#include "transhost_process.h"
#include <dlfcn.h>
#include <execinfo.h>
#include <sys/mman.h>
#include <sys/prctl.h>

int th_process_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}

const char *th_process_library_of(const char *symbol) {
    void *p = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info;
    return p && dladdr(p, &info) ? info.dli_fname : 0;
}

int th_process_caller_libraries(const char **files, int max) {
    void *frames[64];
    int n = backtrace(frames, max < 64 ? max : 64);
    for (int i = 0; i < n; i++) {
        Dl_info info;
        files[i] = dladdr(frames[i], &info) ? info.dli_fname : 0;
    }
    return n;
}

int th_process_memfd(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}
