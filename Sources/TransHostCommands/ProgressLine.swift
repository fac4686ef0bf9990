#if canImport(Glibc)
import Glibc
#endif

/// One status line on stderr that redraws itself in place while `run` renders, fits the
/// terminal's width, and is erased when the work is done, so it never leaves stale lines.
///
/// It is drawn with carriage returns and spaces only, no escape sequences, so a `TERM=dumb`
/// terminal shows it correctly too. It is off unless stderr is a terminal that takes raw writes.
final class ProgressLine: @unchecked Sendable {
    private let write: (String) -> Void
    /// Characters the line may use (one less than the width, so it never wraps).
    let capacity: Int
    private var shown = 0

    /// nil when there is nowhere to draw (not a terminal, or quiet).
    init?(console: Console, environment: [String: String], quiet: Bool) {
        guard console.isTTY, !quiet, let raw = console.errRaw else { return nil }
        write = raw
        capacity = max(Self.columns(environment) - 1, 10)
    }

    /// COLUMNS when the environment sets it, else the terminal's width, else 80.
    static func columns(_ environment: [String: String]) -> Int {
        if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Replaces the line with `text`, cut to the width.
    func update(_ text: String) {
        var t = text
        if t.count > capacity { t = String(t.prefix(capacity - 1)) + "…" }
        let pad = max(shown - t.count, 0)
        write("\r" + t + String(repeating: " ", count: pad))
        shown = t.count
    }

    /// The bar and counts for `done` of `total` transitions of a scenario.
    func render(done: Int, total: Int, of name: String) {
        let width = min(24, max(capacity / 4, 4))
        let filled = total > 0 ? done * width / total : width
        update("[\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(name): rendered \(done)/\(total) transitions")
    }

    /// Erases the line and leaves the cursor at its start.
    func clear() {
        guard shown > 0 else { return }
        write("\r" + String(repeating: " ", count: shown) + "\r")
        shown = 0
    }
}
