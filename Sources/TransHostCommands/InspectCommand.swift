import TransHostPluginHost
import TransHostSupport
import TransHostDiscovery
import TransHostManifest
import TransHostRouting

enum InspectCommand {
    static let help = """
    usage: transhost inspect NAME [--json] [--rescan] [--plugins DIR]...

    Shows one plugin: its manifest, library, ABI, routes, interactions, configure parameters
    (type, default, range; set them with `transhost run --param NAME.PARAM=VALUE`) and status.
    Runs no plugin code.
    """

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued, flags: PluginOptions.flags.union(["--json"]))
        guard args.positionals.count == 1, let name = args.positionals.first else { throw UsageError(message: "give exactly one plugin name") }
        let scan = try PluginOptions(args, environment: environment).scan()
        guard let r = scan.records.first(where: { $0.name == name }) else {
            console.err("transhost inspect: \(PluginHostError.unknownPlugin(name: name))")
            return .inputError
        }
        if args.flag("--json") {
            console.out(JSONWriter.write(ListCommand.recordJSON(r)))
        } else {
            console.out(ListCommand.text(r))
            if let d = r.description { console.out("  description: \(d)") }
            if let l = r.libraryPath { console.out("  library: \(l)") }
            for i in r.manifest?.interactions ?? [] {
                console.out("  interaction: \(i.id) (\(i.kind) along \(i.axis), finishes past \(JSONWriter.format(i.finishThreshold)))")
            }
            if let c = r.manifest?.configure {
                console.out("  configure: \(c.symbol)(\(c.parameters.map { "\($0.type.rawValue) \($0.name)" }.joined(separator: ", ")))")
                for p in c.parameters { console.out("    parameter \(ListCommand.parameterLine(p))") }
            }
        }
        return .ok
    }
}
