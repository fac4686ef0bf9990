import TransHostPluginHost
import TransHostSupport

enum InspectCommand {
    static let help = """
    usage: transhost inspect NAME [--json] [--plugins DIR]...

    Shows one plugin: its manifest, library, ABI, routes and status. Runs no plugin code.
    """

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued, flags: ["--json"])
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
        }
        return .ok
    }
}
