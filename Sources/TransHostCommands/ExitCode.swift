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
