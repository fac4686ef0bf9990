import TransHostReport
import TransHostSupport

/// `merge-reports OUT DIR...`: joins the outputs of several runs (the shards of one run, each
/// run's --out directory) into OUT: every job's directory is copied to OUT/<job>/ (the files
/// its output index lists), and OUT/report.html shows them all, sorted by name, with the
/// combined verdict. The shards must be of one split: the same N, each I once; a missing shard
/// is reported (the page is still written, so what is there can be looked at).
public enum ReportMerger {
    public struct Outcome: Equatable {
        public let report: Report
        public let page: String
        /// The shards of N that no input held ("2/3"), and other reasons the merge is incomplete.
        public let problems: [String]
        /// The worst verdict of the merged jobs; a problem makes it input-error.
        public var verdict: Verdict { problems.isEmpty ? report.verdict : .inputError }
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Copies are bounded like every read; a run's pictures are far below this.
    static let fileLimit = 1 << 30

    public static func merge(_ inputs: [String], into out: String) throws -> Outcome {
        guard !inputs.isEmpty else { throw Failure(description: "give at least one directory to merge (the --out directory of each shard's run)") }
        var jobs: [(job: ReportJob, from: String)] = []
        var shards: [Shard] = []
        for dir in inputs {
            let page = dir.hasSuffix(".html") && !FileIO.isDirectory(dir) ? dir : PathUtil.join(dir, HTML.fileName)
            guard FileIO.exists(page) else {
                throw Failure(description: "\(dir) holds no \(HTML.fileName); give the output directory of a `transhost run` that rendered pictures (for the gallery, its --out directory)")
            }
            let r: Report
            do { r = try HTML.read(page) } catch { throw Failure(description: "cannot read the report \(page): \(error)") }
            for j in r.jobs {
                if let other = jobs.first(where: { $0.job.name == j.name }) {
                    throw Failure(description: "scenario \(j.name) is in both \(other.from) and \(dir); merge the outputs of the shards of one run (each scenario is in one shard)")
                }
                jobs.append((j, PathUtil.dirname(page)))
            }
            shards += r.shards
        }
        var problems: [String] = []
        let totals = Set(shards.map(\.total))
        if totals.count > 1 {
            problems.append("the inputs are shards of different splits (\(shards.sorted().map(\.description).joined(separator: ", "))); merge the shards of one run")
        } else if let n = totals.first {
            let have = shards.map(\.index)
            for i in 1...n where !have.contains(i) { problems.append("shard \(i)/\(n) is missing: its scenarios are not in the merged report") }
            for i in Set(have) where have.filter({ $0 == i }).count > 1 { problems.append("shard \(i)/\(n) was given more than once") }
        }
        if out == "." || inputs.contains(where: { FileIO.realPath($0) != nil && FileIO.realPath($0) == FileIO.realPath(out) }) {
            throw Failure(description: "OUT (\(out)) must be a directory of its own, not one of the inputs")
        }
        do { try FileIO.makeDirectories(out) } catch { throw Failure(description: "cannot create \(out): \(error)") }
        var merged: [ReportJob] = []
        for (j, from) in jobs.sorted(by: { $0.job.name < $1.job.name }) {
            guard PathUtil.componentProblem(j.name) == nil else { throw Failure(description: "\(from): the scenario name \"\(j.name)\" cannot be a directory name") }
            let source = j.dir.isEmpty ? from : PathUtil.join(from, String(j.dir.dropLast()))
            let target = PathUtil.join(out, j.name)
            try copyOutputs(of: j, from: source, to: target)
            var m = j
            m.dir = j.name + "/"
            merged.append(m)
        }
        let report = Report(title: "merged report", shards: shards.sorted(), jobs: merged)
        let page: String
        do {
            OutputIndex.read(in: out).removeFiles(in: out)
            page = try HTML.write(report, in: out)
            try OutputIndex.write([page], in: out)
        } catch { throw Failure(description: "cannot write \(PathUtil.join(out, HTML.fileName)): \(error)") }
        return Outcome(report: report, page: page, problems: problems.sorted())
    }

    /// The files of the job's output index (or, without one, those its report names), copied
    /// into `target`, replacing what an earlier merge put there.
    static func copyOutputs(of j: ReportJob, from source: String, to target: String) throws {
        var names = OutputIndex.read(in: source).files
        if names.isEmpty {
            names = j.transitions.flatMap { t in
                [t.animation, t.sheet].compactMap { $0 } + t.pictures.map(\.file) + t.diffs.flatMap { [$0.expected, $0.actual, $0.diff].compactMap { $0 } }
            }
        }
        var seen = Set<String>()
        names = names.filter { seen.insert($0).inserted }
        do {
            try FileIO.makeDirectories(target)
            OutputIndex.read(in: target).removeFiles(in: target)
            var copied: [String] = []
            for name in names {
                let from = PathUtil.join(source, name), to = PathUtil.join(target, name)
                guard FileIO.exists(from) else { throw Failure(description: "\(from) is missing: the report in \(source) names it; copy the run's whole output directory") }
                try FileIO.writeAtomically(to, try FileIO.readAll(from, limit: fileLimit))
                copied.append(to)
            }
            try OutputIndex.write(copied, in: target)
        } catch let e as Failure { throw e } catch {
            throw Failure(description: "cannot copy the outputs of \(j.name) from \(source) to \(target): \(error)")
        }
    }
}
