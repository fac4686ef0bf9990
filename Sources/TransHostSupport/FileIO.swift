#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// File input and output with POSIX calls: whole-file reads, and atomic writes (a temporary
/// file in the same directory, fsync'd, then renamed), so a crash never leaves a half-written
/// output.
public enum FileIO {
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Inputs larger than this are refused unless a caller asks for more.
    public static let defaultReadLimit = 16 << 20

    /// Reads a whole regular file of at most `limit` bytes. Anything else (a FIFO, a device such
    /// as /dev/zero, a directory, a socket) is refused with its kind, before a byte is read:
    /// opening is non-blocking, so a FIFO with no writer cannot stall the host.
    public static func readAll(_ path: String, limit: Int = defaultReadLimit) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(path: path, reason: errnoText()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(path: path, reason: errnoText()) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw Failure(path: path, reason: notRegular(st.st_mode)) }
        guard Int64(st.st_size) <= Int64(limit) else { throw Failure(path: path, reason: tooLarge(Int64(st.st_size), limit)) }
        var out = [UInt8]()
        out.reserveCapacity(Int(st.st_size))
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; throw Failure(path: path, reason: errnoText()) }
            if n == 0 { break }
            // The file may grow while it is read.
            guard out.count + n <= limit else { throw Failure(path: path, reason: tooLarge(Int64(out.count + n), limit)) }
            out.append(contentsOf: buf[0..<n])
        }
        return out
    }

    /// A regular file read at chosen offsets (pread), for formats whose headers say where to look.
    public final class RandomAccess {
        public let size: Int
        private let fd: Int32

        public init(_ path: String) throws {
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { throw Failure(path: path, reason: errnoText()) }
            var st = stat()
            guard fstat(fd, &st) == 0 else { let r = errnoText(); close(fd); throw Failure(path: path, reason: r) }
            guard (st.st_mode & S_IFMT) == S_IFREG else { close(fd); throw Failure(path: path, reason: notRegular(st.st_mode)) }
            size = Int(st.st_size)
        }

        deinit { close(fd) }

        /// The bytes at [offset, offset + count) that exist: fewer at the end, none outside.
        public func read(_ offset: Int, _ count: Int) -> [UInt8] {
            guard offset >= 0, offset < size, count > 0 else { return [] }
            let want = min(count, size - offset)
            var out = [UInt8](repeating: 0, count: want)
            var got = 0
            while got < want {
                let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, want - got, off_t(offset + got)) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                got += n
            }
            return Array(out[0..<got])
        }
    }

    /// The width and height a PNG file declares in its header (IHDR), read without decoding;
    /// nil when the file does not start like a PNG.
    public static func pngSize(_ path: String) -> (width: Int, height: Int)? {
        guard let file = try? RandomAccess(path) else { return nil }
        let h = file.read(0, 24)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard h.count == 24, Array(h[0..<8]) == signature, Array(h[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (h[16..<20].reduce(0) { $0 << 8 | Int($1) }, h[20..<24].reduce(0) { $0 << 8 | Int($1) })
    }

    /// Why a path is not a regular file ("is a FIFO, not a regular file"), or nil when it is one.
    /// Symlinks are followed; a missing file gives the system's reason.
    public static func regularFileProblem(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return errnoText() }
        return (st.st_mode & S_IFMT) == S_IFREG ? nil : notRegular(st.st_mode)
    }

    static func notRegular(_ mode: mode_t) -> String {
        let kind: String
        switch mode & S_IFMT {
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a plain file"
        }
        return "is \(kind), not a regular file; give the path of a regular file"
    }

    static func tooLarge(_ size: Int64, _ limit: Int) -> String {
        "is \(size) bytes, larger than the \(limit >> 20) MiB this input may be; this is not a file transhost expects here"
    }

    public static func readString(_ path: String) throws -> String { String(decoding: try readAll(path), as: UTF8.self) }

    /// A temporary path beside `path`, unique per process and thread; when the write is
    /// deferred (DeferredCommits), unique per write, since the thread may write the same path
    /// again before the first commit has run.
    static func temporaryPath(for path: String, deferred: Bool = false) -> String {
        let n = deferred ? UInt(deferredWrites.add(1, ordering: .relaxed).newValue)
            : UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))
        return "\(PathUtil.dirname(path))/.\(PathUtil.basename(path)).tmp.\(getpid()).\(n)"
    }

    /// Numbers deferred writes' temporary files (thread ids are far larger, so the two kinds
    /// of name never meet).
    private static let deferredWrites = Atomic<Int>(0)

    /// Lets `body` write the file at a temporary path beside `path` (for libraries that write
    /// by path: cairo, giflib, the GIF writer), then syncs it and renames it over `path` (or
    /// leaves those to the DeferredCommits the thread writes in). On failure the temporary file
    /// is removed and `path` is untouched. Creates parent directories.
    public static func writeAtomically(_ path: String, body: (String) throws -> Void) throws {
        try makeDirectories(PathUtil.dirname(path))
        TemporaryFiles.sweepOnce(PathUtil.dirname(path))
        let commits = DeferredCommits.current
        let tmp = temporaryPath(for: path, deferred: commits != nil)
        // The file is made here, not first by `body`, so an interrupt's sweep always finds it.
        let (slot, _) = TemporaryFiles.registering(tmp) {
            let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd >= 0 { close(fd) }
        }
        do { try body(tmp) } catch {
            unlink(tmp)
            TemporaryFiles.unregister(slot)
            throw error
        }
        // Opened again to sync what `body` wrote. A file `body` took away (ENOENT) fails at the
        // rename, which names it; any other failure (no descriptor left: EMFILE, ENFILE) would
        // let the file take its name unsynced, so the write fails here instead.
        let fd = open(tmp, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno != ENOENT {
            let reason = errnoText()
            unlink(tmp)
            TemporaryFiles.unregister(slot)
            throw Failure(path: path, reason: "could not be opened again to sync it to disk: \(reason); close other programs' files or raise the limit (ulimit -n), then run again")
        }
        try commit(DeferredCommits.Commit(fd: fd, temporary: tmp, path: path, slot: slot), in: commits)
    }

    /// The last step of an atomic write: now, or queued in `commits`.
    private static func commit(_ c: DeferredCommits.Commit, in commits: DeferredCommits?) throws {
        if let commits { commits.add(c); return }
        if let failure = DeferredCommits.commit(c) { throw failure }
    }

    /// Writes `bytes` to `path` atomically, creating parent directories.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        try makeDirectories(PathUtil.dirname(path))
        TemporaryFiles.sweepOnce(PathUtil.dirname(path))
        let commits = DeferredCommits.current
        let tmp = temporaryPath(for: path, deferred: commits != nil)
        let (slot, fd) = TemporaryFiles.registering(tmp) { open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { let r = errnoText(); TemporaryFiles.unregister(slot); throw Failure(path: tmp, reason: r) }
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 {
                if errno == EINTR { continue }
                let r = errnoText(); close(fd); unlink(tmp)
                TemporaryFiles.unregister(slot)
                throw Failure(path: path, reason: r)
            }
            off += n
        }
        try commit(DeferredCommits.Commit(fd: fd, temporary: tmp, path: path, slot: slot), in: commits)
    }

    public static func writeAtomically(_ path: String, _ text: String) throws { try writeAtomically(path, Array(text.utf8)) }

    /// mkdir -p.
    public static func makeDirectories(_ path: String) throws {
        if path.isEmpty || isDirectory(path) { return }
        try makeDirectories(PathUtil.dirname(path))
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw Failure(path: path, reason: errnoText()) }
    }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Names in a directory (not "." or ".."), sorted for determinism.
    public static func list(_ dir: String) throws -> [String] {
        guard let d = opendir(dir) else { throw Failure(path: dir, reason: errnoText()) }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// stat facts the scan cache keys on.
    public struct FileStamp: Equatable, Hashable, Sendable {
        public let size: Int64
        public let mtimeNanoseconds: Int64
        public let inode: UInt64
        /// The inode's change time: set by the kernel on every write, rename or utime, so unlike
        /// mtime it cannot be put back by the writer.
        public let ctimeNanoseconds: Int64
    }

    public static func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(size: Int64(st.st_size), mtimeNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                         inode: UInt64(st.st_ino), ctimeNanoseconds: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec))
    }

    /// Bytes of each sampled window in `sampleHash`.
    static let sampleWindow = 16 << 10

    /// A cheap content hash (64-bit FNV-1a) of a regular file: the whole file when it is small,
    /// else its size and three windows (start, middle, end). Start and end are where an ELF
    /// library keeps its headers and section table. nil when the file cannot be read.
    public static func sampleHash(_ path: String) -> UInt64? {
        guard let file = try? RandomAccess(path) else { return nil }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: [UInt8]) { for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 } }
        let w = sampleWindow
        if file.size <= 3 * w {
            mix(file.read(0, file.size))
        } else {
            mix(file.read(0, w)); mix(file.read(file.size / 2 - w / 2, w)); mix(file.read(file.size - w, w))
        }
        withUnsafeBytes(of: UInt64(file.size).littleEndian) { mix(Array($0)) }
        return h
    }

    /// Where a symlink points (as written), or nil when `path` is not a symlink.
    public static func symlinkTarget(_ path: String) -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buf, buf.count - 1)
        guard n >= 0 else { return nil }
        return PathUtil.string(buf)
    }

    /// The canonical absolute path (symlinks resolved), or nil if it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// The absolute path of the running executable.
    public static func executablePath() -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return PathUtil.string(buf)
    }
}

/// Path string helpers (no Foundation).
public enum PathUtil {
    public static func dirname(_ p: String) -> String {
        guard let i = p.lastIndex(of: "/") else { return "." }
        if i == p.startIndex { return "/" }
        return String(p[..<i])
    }
    public static func basename(_ p: String) -> String {
        guard let i = p.lastIndex(of: "/") else { return p }
        return String(p[p.index(after: i)...])
    }
    public static func join(_ a: String, _ b: String) -> String {
        if b.hasPrefix("/") { return b }
        if a.isEmpty || a == "." { return b }
        return a.hasSuffix("/") ? a + b : a + "/" + b
    }
    /// Whether a relative path stays inside its base directory (no absolute path, no '..' that
    /// climbs out, no empty path).
    public static func staysInside(relative p: String) -> Bool {
        if p.isEmpty || p.hasPrefix("/") { return false }
        var depth = 0
        for part in p.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { depth -= 1; if depth < 0 { return false } } else { depth += 1 }
        }
        return depth > 0
    }
    /// Why `name` cannot be used as one file or directory name inside another directory (it is
    /// empty, ".", "..", contains '/' or NUL, or is longer than 255 bytes), or nil when it can.
    public static func componentProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name == "." || name == ".." { return "\"\(name)\" names a directory, not a file name" }
        if name.contains("/") { return "\"\(name)\" contains '/'; it must be one file name (it names a directory inside the output directory)" }
        if name.utf8.contains(0) { return "contains a NUL character" }
        if name.utf8.count > 255 { return "is \(name.utf8.count) bytes long; a file name has at most 255" }
        return nil
    }

    /// An absolute version of `p` (relative to the current directory).
    public static func absolute(_ p: String) -> String {
        if p.hasPrefix("/") { return p }
        var buf = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buf, buf.count) != nil else { return p }
        return join(string(buf), p)
    }

    /// The text of a NUL-terminated C buffer.
    static func string(_ buf: [CChar]) -> String {
        String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
