#define _GNU_SOURCE
#include "transhost_process.h"
#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

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

/* How many threads this process has (the entries of /proc/self/task); -1 when unknown. */
static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != 0) if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

int th_process_fork_child(const int *child_fds, const int *parent_fds, int count_fds,
                          const int *signals, int count_signals) {
    if (count_fds > 16 || thread_count() != 1) return -2;
    fflush(0);
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0) setpgid(pid, pid); /* either side may win the race; both ask the same */
        return pid;
    }
    setpgid(0, 0);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int i = 0; i < count_signals; i++) sigaction(signals[i], &dfl, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, 0);
    /* Lift the parent's descriptors above every target first, so no dup2 overwrites one that a
       later one still needs; the copies are closed with the rest. */
    enum { HIGH = 64 };
    int lifted[16], highest = 2;
    for (int i = 0; i < count_fds; i++) {
        lifted[i] = fcntl(parent_fds[i], F_DUPFD_CLOEXEC, HIGH);
        if (lifted[i] < 0 || child_fds[i] >= HIGH) _exit(71);
        if (child_fds[i] > highest) highest = child_fds[i];
    }
    /* /dev/null above the targets too: opened low, it could be one of them. */
    int low = open("/dev/null", O_RDWR | O_CLOEXEC), null = low >= 0 ? fcntl(low, F_DUPFD_CLOEXEC, HIGH) : -1;
    if (low >= 0) close(low);
    for (int fd = 0; fd <= highest; fd++) {
        int from = -1;
        for (int i = 0; i < count_fds; i++) if (child_fds[i] == fd) from = lifted[i];
        if (from >= 0) { if (dup2(from, fd) < 0) _exit(71); }
        else if (fd <= 2) { if (null < 0 || dup2(null, fd) < 0) _exit(71); }
        else close(fd);
    }
    if (close_range((unsigned)highest + 1, ~0u, 0) != 0)
        for (int fd = highest + 1, top = (int)sysconf(_SC_OPEN_MAX); fd < top && fd < 65536; fd++) close(fd);
    return 0;
}
