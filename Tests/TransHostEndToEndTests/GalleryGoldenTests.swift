import Foundation
import TransHostTestSupport
import XCTest

/// The gallery's outputs (traces, GIFs, contact sheets of the first-party demos) are
/// byte-identical to the ones recorded in Tests/Goldens/gallery.sha256. A change that is meant
/// to alter them re-records that file (`(cd OUT && find . -type f | sort | xargs sha256sum)`)
/// in the same commit and says why.
final class GalleryGoldenTests: XCTestCase {
    func testGalleryOutputsMatchTheRecordedHashes() throws {
        let out = try TestProcess.temporaryDirectory(self)
        let cache = try TestProcess.temporaryDirectory(self)
        let run = try TestProcess.run(TestProcess.transhost, ["run", "-q", "--out", out], environment: ["TRANSHOST_CACHE": cache + "/cache.json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let hashes = try TestProcess.run("/bin/sh", ["-c", "cd \"$0\" && find . -type f ! -name '.*' | LC_ALL=C sort | xargs sha256sum", out])
        XCTAssertEqual(hashes.status, 0, hashes.stderr)
        let golden = try String(contentsOfFile: TestProcess.packageRoot + "/Tests/Goldens/gallery.sha256", encoding: .utf8)
        func table(_ s: String) -> [String: String] {
            var t: [String: String] = [:]
            for line in s.split(separator: "\n") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                if parts.count == 2 { t[String(parts[1])] = String(parts[0]) }
            }
            return t
        }
        let expected = table(golden), actual = table(hashes.stdout)
        XCTAssertEqual(Set(actual.keys), Set(expected.keys), "the gallery wrote a different set of files")
        for (file, hash) in expected.sorted(by: { $0.key < $1.key }) where actual[file] != nil {
            XCTAssertEqual(actual[file], hash, "\(file) differs from its recorded golden")
        }
    }
}
