import TransHostCoordinators
import TransHostPluginHost
import TransHostScenario
import TransHostSupport
import TransHostDiscovery
import TransHostManifest
import TransHostRouting

enum RouteCommand {
    static let help = """
    usage: transhost route --container navigation|tab|modal --op OP --from TYPE --to TYPE
                           [--scenario FILE] [--explain] [--json] [--plugins DIR]...

    Prints the animator the installed plugins' routes give this transition, or that the host's
    default transition runs. Types take their superclasses from --scenario's "types".
    Precedence: priority, then specificity (exact pair, nearer supertypes, wildcards), then a
    direct rule over a derived reverse one, then declaration order (reported as a conflict).

      --explain   list every candidate rule and why it won or lost
      --json      print the decision as JSON
    """

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued.union(["--container", "--op", "--from", "--to", "--scenario"]),
                                 flags: PluginOptions.flags.union(["--explain", "--json"]))
        if let extra = args.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        guard let c = args.value("--container"), let container = ContainerKind(rawValue: c) else {
            throw UsageError(message: "--container must be navigation, tab or modal")
        }
        guard let o = args.value("--op"), let op = TransitionOperation(rawValue: o) else {
            throw UsageError(message: "--op must be push, pop, select, present or dismiss")
        }
        guard let from = args.value("--from"), let to = args.value("--to") else { throw UsageError(message: "--from and --to are required") }
        guard op.container == container else {
            throw UsageError(message: "--op \(o) does not happen in a \(c) container (\(c): \(TransitionOperation.allCases.filter { $0.container == container }.map(\.rawValue).joined(separator: ", ")))")
        }
        var types: [String: String] = [:]
        if let file = args.value("--scenario") { types = try Scenario.load(file: file).types }
        let scan = try PluginOptions(args, environment: environment).scan()
        let router = Router(rules: PluginRuntime.rules(from: scan.routable), types: TypeHierarchy(superclasses: types))
        let decision = router.resolve(RouteQuery(container: container, operation: op, from: from, to: to))
        if args.flag("--json") {
            console.out(JSONWriter.write(.object([
                "query": ["container": .string(c), "operation": .string(o), "from": .string(from), "to": .string(to)],
                "winner": decision.winner.map { ["plugin": .string($0.rule.plugin), "animator": .string($0.rule.animator),
                                                 "reversed": .bool($0.reversed), "source": .string($0.rule.source),
                                                 "delegate": .bool($0.rule.isDelegate),
                                                 "unusable": $0.rule.unusableReason.map(JSONValue.string) ?? .null] } ?? .null,
                "conflicts": .array(decision.conflicts.map { .string($0.rule.label) }),
                "candidates": .array(decision.candidates.map { ["rule": .string($0.rule.label), "matched": .bool($0.matched), "reason": .string($0.reason)] }),
            ])))
            return .ok
        }
        if let w = decision.winner, let reason = w.rule.unusableReason {
            console.out("default transition: the route of \(w.rule.plugin)/\(w.rule.animator) wins, but the plugin is not usable: \(reason)")
        } else if let w = decision.winner {
            let name = w.rule.isDelegate ? "\(w.rule.plugin)/delegate \(w.rule.animator) (the delegate is asked for the animator; nil means the default)" : "\(w.rule.plugin)/\(w.rule.animator)"
            console.out("\(name)\(w.reversed ? " (reverse of its stated route)" : "")")
        } else {
            console.out("default transition (no route matches)")
        }
        if !decision.conflicts.isEmpty {
            console.out("  conflict: \(decision.conflicts.map(\.rule.label).joined(separator: ", ")) matched equally (same priority and specificity); declaration order decided. Give one route a higher priority.")
        }
        if args.flag("--explain") { for line in decision.explanation { console.out("  \(line)") } }
        return .ok
    }
}
