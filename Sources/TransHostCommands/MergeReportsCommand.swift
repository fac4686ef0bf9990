import TransHostReport
import TransHostRun

/// `transhost merge-reports OUT DIR...`: the shards' outputs joined into one report.
enum MergeReportsCommand {
    static let help = """
    usage: transhost merge-reports OUT DIR... [-q]

    Joins the outputs of several `transhost run`s (typically the --shard I/N parts of one run,
    each DIR a part's --out directory) into OUT: each scenario's directory is copied to
    OUT/<scenario>/ and OUT/report.html shows them all, sorted by name. It prints each scenario's
    verdict and exits with the code the whole run would have had: 0 ok, 1 a trace or frame
    differs, 3 a plugin failed, 4 a contract breach, 5 a shard is missing (N shards and not
    every I/N given), a scenario is in two inputs, or an input cannot be read.
    """

    static func run(_ argv: [String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: [], flags: ["-q", "--quiet"])
        guard args.positionals.count >= 2 else { throw UsageError(message: "give OUT and at least one DIR to merge") }
        let quiet = args.flag("-q") || args.flag("--quiet")
        let out = args.positionals[0], inputs = Array(args.positionals.dropFirst())
        let outcome: ReportMerger.Outcome
        do { outcome = try ReportMerger.merge(inputs, into: out) } catch let e as ReportMerger.Failure {
            console.err("transhost merge-reports: \(e)")
            return .inputError
        }
        if !quiet {
            for j in outcome.report.jobs {
                console.out("  \(j.name)  \(j.verdict.rawValue)  \(j.transitions.count) transition\(j.transitions.count == 1 ? "" : "s")")
            }
        }
        for p in outcome.problems { console.err("transhost merge-reports: \(p)") }
        let shards = outcome.report.shards.isEmpty ? "" : " (shards \(outcome.report.shards.map(\.description).joined(separator: ", ")))"
        if !quiet { console.out("merged \(outcome.report.jobs.count) scenario\(outcome.report.jobs.count == 1 ? "" : "s") from \(inputs.count) input\(inputs.count == 1 ? "" : "s")\(shards): \(outcome.report.verdict.rawValue)") }
        console.out("wrote \(outcome.page)")
        return ExitCode(outcome.verdict)
    }
}
