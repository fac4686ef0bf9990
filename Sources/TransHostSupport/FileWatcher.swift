#if canImport(Glibc)
import Glibc
#endif

/// Where file change events come from: inotify in the product, a scripted source in tests.
public protocol FileEventSource: AnyObject {
    /// Starts watching these files (absolute paths); replaces what was watched before.
    func watch(_ files: [String]) throws
    /// Waits at most `timeout` seconds for events and returns the watched files they concern
    /// (possibly empty on a timeout), or nil when the source can deliver no more.
    func next(timeout: Double) -> [String]?
}

/// Waits until one of a set of files changes, for `transhost run --watch`: a rebuild or an
/// editor's save comes as a burst of events (truncate, write, close; or write a temporary file
/// and rename it over), so events are gathered until none has come for `settle` seconds, and
/// only files whose size, times or contents really changed are reported.
public final class FileWatcher {
    public let files: [String]
    let source: FileEventSource
    let settle: Double
    private var stamps: [String: String] = [:]

    /// `baseline`: the files' stamps when their contents were read (`stamps(of:)`), so that a
    /// change made between reading and watching is reported at once rather than missed.
    public init(files: [String], source: FileEventSource, settle: Double = 0.2, baseline: [String: String] = [:]) throws {
        self.files = Array(Set(files.map(PathUtil.absolute))).sorted()
        self.source = source
        self.settle = settle
        try source.watch(self.files)
        for f in self.files { stamps[f] = baseline[f] ?? Self.stamp(f) }
    }

    /// What the watcher compares: size, times, inode and a content hash of each file.
    public static func stamps(of files: [String]) -> [String: String] {
        Dictionary(files.map { (PathUtil.absolute($0), stamp(PathUtil.absolute($0))) }, uniquingKeysWith: { a, _ in a })
    }

    static func stamp(_ path: String) -> String {
        guard let s = FileIO.stamp(path) else { return "missing" }
        return "\(s.size):\(s.mtimeNanoseconds):\(s.inode):\(s.ctimeNanoseconds):\(FileIO.sampleHash(path) ?? 0)"
    }

    /// Blocks until a watched file changed and returns the changed files (sorted), or nil when
    /// `shouldStop` says so (checked at least every quarter second) or the source ends.
    public func waitForChange(shouldStop: () -> Bool = { false }) -> [String]? {
        let already = files.filter { Self.stamp($0) != stamps[$0] }
        if !already.isEmpty {
            for f in already { stamps[f] = Self.stamp(f) }
            return already
        }
        while !shouldStop() {
            guard let first = source.next(timeout: 0.25) else { return nil }
            guard !first.isEmpty else { continue }
            var touched = Set(first)
            while true {
                if shouldStop() { return nil }
                guard let more = source.next(timeout: settle) else { break }
                if more.isEmpty { break }
                touched.formUnion(more)
            }
            var changed: [String] = []
            for f in touched.sorted() where files.contains(f) {
                let now = Self.stamp(f)
                if now != stamps[f] { changed.append(f); stamps[f] = now }
            }
            if !changed.isEmpty { return changed }
        }
        return nil
    }
}

/// inotify(7) on the directories that hold the watched files, so a file that is replaced by a
/// rename (editors, linkers, `cp` over it) or deleted and created again is still seen.
public final class InotifyEventSource: FileEventSource {
    let fd: Int32
    private var directories: [Int32: String] = [:]
    private var watched = Set<String>()

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public init() throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw Failure(description: "inotify_init1 failed (\(String(cString: strerror(errno)))); the system may be out of inotify instances (fs.inotify.max_user_instances)") }
    }

    deinit { close(fd) }

    public func watch(_ files: [String]) throws {
        for wd in directories.keys { inotify_rm_watch(fd, wd) }
        directories = [:]
        watched = Set(files)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB)
        for dir in Set(files.map(PathUtil.dirname)) {
            let wd = inotify_add_watch(fd, dir, mask)
            guard wd >= 0 else {
                throw Failure(description: "cannot watch \(dir) (\(String(cString: strerror(errno)))); check that it exists, or raise fs.inotify.max_user_watches")
            }
            directories[wd] = dir
        }
    }

    public func next(timeout: Double) -> [String]? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, Int32(max(0, timeout * 1000)))
        if r < 0 { return errno == EINTR ? [] : nil }
        if r == 0 { return [] }
        var out: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var off = 0
            while off + 16 <= n {
                let (wd, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                    (raw.loadUnaligned(fromByteOffset: off, as: Int32.self), Int(raw.loadUnaligned(fromByteOffset: off + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(off + 16)..<min(n, off + 16 + length)].prefix { $0 != 0 }
                if let dir = directories[wd], !nameBytes.isEmpty {
                    let path = PathUtil.join(dir, String(decoding: nameBytes, as: UTF8.self))
                    if watched.contains(path) { out.append(path) }
                }
                off += 16 + length
            }
        }
        return out
    }
}
