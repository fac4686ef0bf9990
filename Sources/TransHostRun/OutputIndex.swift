#if canImport(Glibc)
import Glibc
#endif
import TransHostSupport

/// The list of files a run wrote into its output directory (`.transhost-outputs`, one file name a
/// line). The next run into the same directory removes exactly those files before it writes its
/// own, so a directory reused for another plugin or scenario never mixes two runs' pictures, and
/// files the user put there are left alone.
public struct OutputIndex: Equatable, Sendable {
    public static let fileName = ".transhost-outputs"

    /// File names relative to the directory (never a path: an entry with '/' is ignored).
    public var files: [String]

    public init(files: [String]) { self.files = files }

    public static func path(in dir: String) -> String { PathUtil.join(dir, fileName) }

    /// The index a previous run left in `dir`, or an empty one.
    public static func read(in dir: String) -> OutputIndex {
        guard let text = try? FileIO.readString(path(in: dir)) else { return OutputIndex(files: []) }
        return OutputIndex(files: text.split(separator: "\n").map(String.init).filter(isPlainName))
    }

    /// Removes the files this index lists from `dir` (missing ones are fine).
    public func removeFiles(in dir: String) {
        for name in files where Self.isPlainName(name) { _ = unlink(PathUtil.join(dir, name)) }
    }

    /// Writes the index of `paths` (files inside `dir`) atomically.
    public static func write(_ paths: [String], in dir: String) throws {
        let prefix = dir.hasSuffix("/") ? dir : dir + "/"
        let names = paths.compactMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }.filter(isPlainName)
        try FileIO.writeAtomically(path(in: dir), names.map { $0 + "\n" }.joined())
    }

    static func isPlainName(_ s: String) -> Bool { !s.isEmpty && !s.contains("/") && s != "." && s != ".." && s != fileName }
}
