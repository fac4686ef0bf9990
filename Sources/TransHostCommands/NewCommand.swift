import TransHostAuthoring
import TransHostSupport

enum NewCommand {
    static let help = """
    usage: transhost new NAME --lang c|swift [--dir DIR]

    Writes a plugin project into DIR/NAME (DIR defaults to the current directory): an animator
    (slide-in: push and its pop, interactive cancels restored) in C or in Swift, manifest.json,
    a demo scenario (demo.json), a README and build.sh, which builds it out of tree against the
    installed SDK (pkg-config transhost) or a checkout (TRANSHOST_SRC=...). The project passes
    `transhost validate` as generated. NAME is written once, in manifest.json; build.sh reads it
    from there, so renaming the plugin is one edit.

      --lang c|swift  the language of the animator
      --dir DIR       where to create the project directory NAME (default: .)

    exit codes: 0 written, 2 usage, 5 the directory exists and is not empty, or cannot be written
    """

    static func run(_ argv: [String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: ["--lang", "--dir"], flags: ["-q", "--quiet"])
        guard let name = args.positionals.first else { throw UsageError(message: "give the plugin's NAME, e.g. `transhost new my-fade --lang c`") }
        if let extra = args.positionals.dropFirst().first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        guard let langText = args.value("--lang") else { throw UsageError(message: "--lang c or --lang swift is required") }
        guard let lang = PluginProject.Language(rawValue: langText) else {
            throw UsageError(message: "--lang \(langText.debugDescription) is not c or swift\(Spelling.hint(for: langText, among: ["c", "swift"]))")
        }
        let project: PluginProject
        do { project = try PluginProject(name: name, language: lang) } catch let f as PluginProject.Failure { throw UsageError(message: f.description) }
        let dir = PathUtil.join(args.value("--dir") ?? ".", name)
        do {
            let written = try project.write(into: dir)
            if !args.flag("-q") && !args.flag("--quiet") {
                for p in written { console.out("wrote \(p)") }
                console.out("next: \(PathUtil.join(dir, "build.sh")) plugins && transhost validate plugins/\(name)   (or TRANSHOST_SRC=CHECKOUT before build.sh)")
            }
            return .ok
        } catch let f as PluginProject.Failure {
            console.err("transhost new: \(f.description)")
            return .inputError
        }
    }
}
