/// The `transhost` exit codes (README "Exit codes").
public enum ExitCode: Int32, Sendable {
    case ok = 0
    /// A comparison found a difference (golden checks).
    case mismatch = 1
    /// The command line is wrong.
    case usage = 2
    /// A plugin failed to load.
    case pluginFailed = 3
    /// An animator broke the transition contract (the host recovered).
    case contractBreach = 4
    /// Input (a scenario, a manifest) is invalid or an output could not be written.
    case inputError = 5
}

/// Where a command writes: stdout for results, stderr for logs, warnings and progress.
public struct Console {
    public var out: (String) -> Void
    public var err: (String) -> Void
    public var isTTY: Bool
    public var color: Bool
    /// Writes to stderr as is, without a newline (for a status line redrawn in place).
    public var errRaw: ((String) -> Void)?
    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, isTTY: Bool = false, color: Bool = false,
                errRaw: ((String) -> Void)? = nil) {
        self.out = out; self.err = err; self.isTTY = isTTY; self.color = color; self.errRaw = errRaw
    }
}

/// A usage error: the message says what is wrong and how to get help.
public struct UsageError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
