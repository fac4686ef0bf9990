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

import TransHostReport

extension ExitCode {
    /// The exit code of a job's (or a report's) verdict.
    init(_ v: Verdict) {
        switch v {
        case .ok: self = .ok
        case .mismatch: self = .mismatch
        case .contractBreach: self = .contractBreach
        case .pluginFailed: self = .pluginFailed
        case .inputError: self = .inputError
        }
    }
}
