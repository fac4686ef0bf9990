// Process control the Swift host cannot call directly (prctl is variadic). Internal to the host:
// plugins never see this header.
#ifndef TRANSHOST_PROCESS_H
#define TRANSHOST_PROCESS_H

// Asks the kernel to send `sig` to this process when its parent dies. Returns 0 or -1 (errno).
int th_process_set_parent_death_signal(int sig);

// Fills `files` with the library file of each return address on the calling thread's stack,
// innermost first (NULL where unknown); returns how many were written (at most `max`).
int th_process_caller_libraries(const char **files, int max);

// The file of the loaded library that defines `symbol` (as dladdr names it), or NULL.
const char *th_process_library_of(const char *symbol);

#include <stdint.h>

// Forks a child of this process that, unlike posix_spawn, does not exec: it goes on from the
// return with the process as it was, so it starts without loading a program. Only a process with
// one thread may do this (a copy of a process whose other threads hold locks would hang in them):
// it returns -2, and does nothing, when this process has more (or /proc/self/task cannot
// be read). In the child (return 0): its own
// process group; the default action and no blocking for the `count_signals` signals listed;
// parent_fds[i] as child_fds[i] (i < count_fds), stdin, stdout and stderr /dev/null unless given,
// every other descriptor closed; stdio's buffers were flushed before the fork. If the child
// cannot set up its descriptors it exits with status 71. Returns the child's pid in the parent,
// or -1 (errno) when fork fails.
int th_process_fork_child(const int *child_fds, const int *parent_fds, int count_fds,
                          const int *signals, int count_signals);

// An anonymous in-memory file (memfd_create), close-on-exec; -1 on failure.
int th_process_memfd(const char *name);

// Where a playback worker is, in a page shared with its supervisor. The worker writes it before
// and after every call into plugin code; the supervisor reads it when the worker dies or takes
// too long, to name the plugin, the call and the transition.
typedef struct {
    volatile uint64_t sequence;
    volatile int32_t phase;          // th_worker_phase
    volatile int32_t depth;          // plugin calls in progress (0: host code)
    volatile int32_t transition;     // the transition plugin code works for; -1 before any
    volatile int32_t loading;        // 1 while a plugin is being loaded (constructors, init)
    volatile int64_t call_started_ns; // CLOCK_MONOTONIC when the innermost call began
    char plugin[128];                // the plugin of the innermost (or last) call
    char call[64];                   // its entry point ("animate_transition", "init", ...)
} th_worker_status;

enum th_worker_phase {
    TH_WORKER_STARTING = 0,
    TH_WORKER_PLAYING = 1,   // loading plugins and playing the script
    TH_WORKER_REPORTING = 2, // sending the result
    TH_WORKER_EXITING = 3,   // result sent; deinit and library destructors
};

#endif
