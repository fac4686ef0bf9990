/// A plugin that crashed, hung or exited while a playback worker ran its code. The supervisor
/// records it against the transition it happened in (or the run, when it happened while
/// loading or at exit) and replays the scenario without that plugin from that transition on.
public struct PluginFailure: Equatable, Sendable {
    public var plugin: String
    /// The entry point that was running: "animate_transition", "init", "dlopen (a library
    /// constructor)", "deinit", ...
    public var call: String
    /// "SIGSEGV", "exit status 0", "no return within 5 s (killed)", ...
    public var cause: String
    /// The transition it happened in; nil while loading before any transition, or at exit.
    public var transition: Int?
    /// One sentence for the user, naming plugin, call and cause, and what the host did.
    public var message: String

    public init(plugin: String, call: String, cause: String, transition: Int?, message: String) {
        self.plugin = plugin; self.call = call; self.cause = cause; self.transition = transition; self.message = message
    }

    /// The first clause of the message: what happened, without what the host did about it.
    public var headline: String { message.split(separator: ";").first.map(String.init) ?? message }

    /// "crashed while animating (SIGSEGV in animate_transition)": what `list` remembers.
    public var summary: String {
        let verb = cause.hasPrefix("SIG") ? "crashed" : (cause.hasPrefix("exit") ? "exited" : "hung")
        return "\(verb) while animating (\(cause) in \(call))"
    }
}

/// How a transition was touched by a plugin failure.
public struct TransitionFailureNote: Equatable, Sendable {
    /// True for the transition the failure happened in; false for a later one that would have
    /// gone to the same plugin and got the default instead.
    public var failedHere: Bool
    public var failure: PluginFailure
    public init(failedHere: Bool, failure: PluginFailure) { self.failedHere = failedHere; self.failure = failure }
}
