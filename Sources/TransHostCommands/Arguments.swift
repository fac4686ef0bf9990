/// A small, strict command-line reader: `--name value`, `--name=value`, flags, positionals.
/// Unknown options are usage errors, so a typo never silently changes a run.
struct Arguments {
    private var tokens: [String]
    private(set) var positionals: [String] = []
    private var options: [(name: String, value: String?)] = []

    /// `valued` lists options that take a value. `words` lets a flag take one of a few words as
    /// a value (`--frames all`); followed by anything else it stays a plain flag.
    init(_ argv: [String], valued: Set<String>, flags: Set<String>, words: [String: Set<String>] = [:]) throws {
        tokens = argv
        var i = 0
        while i < argv.count {
            let a = argv[i]
            if a == "--" { positionals.append(contentsOf: argv[(i + 1)...]); break }
            if a.hasPrefix("-") && a.count > 1 {
                var name = a, value: String?
                if let eq = a.firstIndex(of: "=") { name = String(a[..<eq]); value = String(a[a.index(after: eq)...]) }
                if valued.contains(name) {
                    if value == nil {
                        guard i + 1 < argv.count else { throw UsageError(message: "option \(name) needs a value") }
                        i += 1
                        value = argv[i]
                    }
                    options.append((name, value))
                } else if flags.contains(name) {
                    let allowed = words[name] ?? []
                    if value == nil, i + 1 < argv.count, allowed.contains(argv[i + 1]) { i += 1; value = argv[i] }
                    guard value == nil || allowed.contains(value!) else {
                        throw UsageError(message: allowed.isEmpty ? "option \(name) takes no value"
                                                                  : "option \(name) takes no value or one of: \(allowed.sorted().joined(separator: ", "))")
                    }
                    options.append((name, value))
                } else {
                    throw UsageError(message: "unknown option \(name)")
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }
    }

    func flag(_ name: String) -> Bool { options.contains { $0.name == name } }
    func value(_ name: String) -> String? { options.last { $0.name == name }?.value }
    func values(_ name: String) -> [String] { options.filter { $0.name == name }.compactMap(\.value) }
}
