#if canImport(Glibc)
import Glibc
#endif

/// The host's stdout. Plugin code running in this process (`--isolation none`, validation
/// children aside) shares file descriptor 1 with the host; `keepForHost` moves the host's own
/// stdout to a private descriptor and points 1 at stderr, so what a plugin prints can never
/// corrupt `run --json` or a piped summary.
public enum StandardOutput {
    nonisolated(unsafe) private static var fd: Int32 = 1

    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(10)
        var off = 0
        bytes.withUnsafeBytes { raw in
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n > 0 { off += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    /// Called before any plugin code can run in this process.
    static func keepForHost() {
        guard fd == 1 else { return }
        fflush(nil)
        let saved = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { return }
        fd = saved
        dup2(2, 1)
    }
}
