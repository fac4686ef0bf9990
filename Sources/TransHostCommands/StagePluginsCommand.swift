import TransHostDiscovery
import TransHostSupport

/// `transhost stage-plugins`: the set-up step that copies built first-party plugins beside the
/// binary (internal: `scripts/setup` runs it; not listed in `transhost help`).
enum StagePluginsCommand {
    static let help = """
    usage: transhost stage-plugins --sources DIR --products DIR [--into DIR] [--registry FILE]

    Copies each plugin of --sources (a directory of plugin directories, each with manifest.json)
    into --into (default: DIR/plugins of --products): its manifest, the library the manifest names
    (taken from --products, the build's products directory), and its other .json and .png files.
    With --registry, the registry file is copied into --products too. Used by scripts/setup.
    """

    static func run(_ argv: [String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: ["--sources", "--products", "--into", "--registry"], flags: ["-q", "--quiet"])
        if let extra = args.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        guard let sources = args.value("--sources"), let products = args.value("--products") else {
            throw UsageError(message: "--sources and --products are required")
        }
        let into = args.value("--into") ?? PathUtil.join(products, "plugins")
        let staged: [String]
        do { staged = try PluginStaging.stage(sources: sources, products: products, destination: into) } catch let e as PluginStaging.Failure {
            console.err("transhost stage-plugins: \(e)")
            return .inputError
        }
        if let registry = args.value("--registry") {
            try PluginStaging.copy(registry, to: PathUtil.join(products, "registry.json"))
        }
        if !(args.flag("-q") || args.flag("--quiet")) { for s in staged { console.err("staged \(s)") } }
        return .ok
    }
}
