import TransHostReport
import TransHostRun
import TransHostSupport

extension RunCommand {
    /// The jobs of this run's shard (`--shard I/N`, recorded in `options`), or all of them.
    static func shard(_ planned: [RunJob], _ args: Arguments, options: inout RunOptions, quiet: Bool, console: Console) throws -> [RunJob] {
        guard let text = args.value("--shard") else { return planned }
        switch Shard.parse(text) {
        case .success(let s): options.shard = s
        case .failure(let e): throw UsageError(message: e.description)
        }
        let jobs = options.shard!.select(planned) { PathUtil.basename($0.outDir) }
        if !quiet {
            let names = jobs.isEmpty ? "" : " (\(jobs.map { PathUtil.basename($0.outDir) }.joined(separator: ", ")))"
            console.err("shard \(options.shard!): \(jobs.count) of \(planned.count) scenario\(planned.count == 1 ? "" : "s")\(names)")
        }
        return jobs
    }

    /// The page over several jobs: the gallery's, in the directory above its scenarios' (a
    /// shard's: over the shard's scenarios, even none), or, for a shard left with no scenario of
    /// a single-scenario run, an empty one where that scenario would have been written, so that
    /// `merge-reports` finds every shard. Returns the exit code it adds.
    static func writeSharedReport(_ session: RunSession, _ reports: [JobReport], _ args: Arguments, planned: [RunJob],
                                  quiet: Bool, console: Console) -> ExitCode {
        guard session.options.writesReport, !reports.contains(where: { if case .unwritable? = $0.failure { return true }; return false }) else { return .ok }
        let dir: String
        if let root = galleryRoot(args, planned: planned) {
            dir = root
        } else if session.options.shard != nil, reports.isEmpty, let only = planned.first {
            dir = only.outDir
        } else {
            return .ok
        }
        do {
            let page = try session.writeGalleryReport(reports, in: dir)
            if !quiet { console.out("wrote \(page)") }
            return .ok
        } catch {
            console.err("transhost run: \(error)")
            return .inputError
        }
    }

    /// The directory above the gallery's job directories (--out, default out), or nil when the
    /// run is not the gallery.
    static func galleryRoot(_ args: Arguments, planned: [RunJob]) -> String? {
        guard args.value("--scenario") == nil, args.positionals.isEmpty else { return nil }
        let root = args.value("--out") ?? "out"
        let parent = PathUtil.dirname(PathUtil.join(root, "job"))
        return planned.allSatisfy({ PathUtil.dirname($0.outDir) == parent }) ? root : nil
    }
}
