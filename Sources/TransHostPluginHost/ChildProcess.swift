import CTransHostProcess
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// Child processes that run plugin code (validation children, playback workers): started fresh
/// with posix_spawn and exec of the transhost binary in a hidden mode, or (`fork`) forked from a
/// host that has only one thread, never from one whose other threads may hold locks; each in its
/// own process group, so that the host can end a worker together with anything a plugin started.
public enum ChildProcess {
    /// The transhost binary that children run. The CLI sets it to itself; elsewhere (tests,
    /// benchmarks) it defaults to `transhost` beside the running executable.
    nonisolated(unsafe) public static var executable: String? = nil

    static var resolvedExecutable: String? {
        if let e = executable { return e }
        guard let me = FileIO.executablePath() else { return nil }
        if PathUtil.basename(me) == "transhost" { return me }
        let beside = PathUtil.join(PathUtil.dirname(me), "transhost")
        return FileIO.exists(beside) ? beside : nil
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `transhost ARGS...` with the given descriptors mapped into the child (child fd ->
    /// parent fd); every other descriptor of the host is closed in the child (they are all
    /// close-on-exec). stdin, stdout and stderr are /dev/null unless mapped.
    ///
    /// A parent descriptor may have the number of another mapping's child descriptor (a
    /// worker's status page opened as fd 3, which its result pipe is mapped to): each is first
    /// copied above every child number, so no mapping overwrites one that a later one reads.
    /// Without that the worker found its result pipe where its status page should be, could
    /// not map it, and exited with status 71 before it played.
    public static func spawn(_ arguments: [String], descriptors: [(child: Int32, parent: Int32)]) throws -> pid_t {
        guard let exe = resolvedExecutable else {
            throw SpawnError(description: "cannot find the transhost binary to start a child process (looked beside \(FileIO.executablePath() ?? "the running program"))")
        }
        let above = max(descriptors.map(\.child).max() ?? 2, 2) + 1
        var lifted: [Int32] = []
        defer { for fd in lifted { close(fd) } }
        for d in descriptors {
            let copy = fcntl(d.parent, F_DUPFD_CLOEXEC, above)
            guard copy >= 0 else {
                throw SpawnError(description: "could not pass descriptor \(d.parent) to a child process (\(String(cString: strerror(errno))))")
            }
            lifted.append(copy)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] where !descriptors.contains(where: { $0.child == fd }) {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        for (d, copy) in zip(descriptors, lifted) { posix_spawn_file_actions_adddup2(&actions, copy, d.child) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in defaultSignals { sigaddset(&defaults, s) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([exe] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, exe, &actions, &attr, argv, environ)
        guard rc == 0 else {
            throw SpawnError(description: "could not start \(exe) (\(String(cString: strerror(rc))))")
        }
        return pid
    }

    /// The signals a child starts with the default action for (a host's own handlers, its
    /// crash guard and its cleanup on SIGINT, are not the child's).
    static let defaultSignals = [SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGINT, SIGTERM, SIGXCPU, SIGCHLD]

    /// Forks a child that goes on from here without exec, set up as `spawn` sets up its children
    /// (descriptors, process group, signals), when this process has one thread; nil when it has
    /// more (a copy of a process whose other threads hold locks would hang in them), or when
    /// `TRANSHOST_WORKER_EXEC` is set. Returns 0 in the child and the child's pid in the parent.
    public static func fork(descriptors: [(child: Int32, parent: Int32)]) throws -> pid_t? {
        if getenv("TRANSHOST_WORKER_EXEC") != nil { return nil }
        let child = descriptors.map(\.child), parent = descriptors.map(\.parent)
        let pid = th_process_fork_child(child, parent, Int32(descriptors.count), defaultSignals, Int32(defaultSignals.count))
        if pid == -2 { return nil }
        guard pid >= 0 else { throw SpawnError(description: "could not fork a child process (\(String(cString: strerror(errno))))") }
        return pid
    }

    /// In a child, before any plugin code runs: die with the parent (checked against the pid the
    /// parent passed, which closes the window before the request took effect), no core files,
    /// the default action for crash signals (the Swift runtime's backtracer would otherwise print
    /// a host backtrace for plugin code), and the given limits.
    public static func becomeChild(of parent: pid_t, addressSpaceBytes: UInt64? = nil, cpuSeconds: UInt64? = nil) {
        _ = th_process_set_parent_death_signal(SIGKILL)
        if getppid() != parent { _exit(70) }
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        if let bytes = addressSpaceBytes {
            var l = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &l)
        }
        if let s = cpuSeconds {
            // SIGXCPU at the soft limit; SIGKILL a second later if it is ignored.
            var l = rlimit(rlim_cur: rlim_t(s), rlim_max: rlim_t(s + 1))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &l)
        }
        for s in [SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGXCPU] { _ = Glibc.signal(s, SIG_DFL) }
    }

    /// Kills a child's whole process group and reaps the child.
    public static func kill(_ pid: pid_t) -> Int32 {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// How a child ended, from its wait status: "SIGSEGV", "exit status 0", ...
    public static func describe(_ status: Int32) -> String {
        let sig = status & 0x7f
        if sig != 0 && sig != 0x7f {
            if sig == SIGXCPU { return "SIGXCPU (its CPU time limit)" }
            return PluginValidator.signalName(sig)
        }
        return "exit status \((status >> 8) & 0xff)"
    }

    /// The signal that ended a child, or nil if it exited.
    public static func signal(of status: Int32) -> Int32? {
        let sig = status & 0x7f
        return sig != 0 && sig != 0x7f ? sig : nil
    }
}
