import Foundation
import TransHostTestSupport
import XCTest

/// "Compiles unchanged" outside SwiftPM too: a corpus file, copied as it is into a plugin made
/// from templates/swift-plugin, builds with the template's build.sh (swiftc and cc, out of tree)
/// beside a one-line export, and the template's demo scenario plays it with the real binary.
final class StandaloneBuildTests: XCTestCase {

    /// (corpus file, the animator class it defines). Files with plain `init()` animators, so the
    /// export is `Class.init`; one of them also imports QuartzCore, one is a seed transliteration.
    let files = [
        ("CrossfadeAnimator.swift", "CrossfadeAnimator"),
        ("CardFlipAnimator.swift", "CardFlipAnimator"),
        ("CustomPushAnimation.swift", "CustomPushAnimation"),
    ]

    func testCorpusFilesBuildOutOfTreeWithTheTemplateBuildScript() throws {
        let fm = FileManager.default
        for (file, animator) in files {
            let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-corpus-standalone")
            let plugin = dir + "/slide-in"
            try fm.copyItem(atPath: TestProcess.packageRoot + "/templates/swift-plugin", toPath: plugin)
            for f in try fm.contentsOfDirectory(atPath: plugin + "/Swift") { try fm.removeItem(atPath: plugin + "/Swift/" + f) }
            try fm.copyItem(atPath: Corpus.root + "/Swift/Corpus/" + file, toPath: plugin + "/Swift/" + file)
            try """
            import UIKit
            @_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer { TransHostExport(animators: ["slide-in": \(animator).init]) }

            """.write(toFile: plugin + "/Swift/Export.swift", atomically: true, encoding: .utf8)
            // The template's configure function belongs to its own animator, which is gone.
            let manifestPath = plugin + "/manifest.json"
            var manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
            manifest["configure"] = nil
            try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: manifestPath))

            let build = try TestProcess.run("/bin/sh", [plugin + "/build.sh", dir + "/plugins"],
                                            environment: ["TRANSHOST_SRC": TestProcess.packageRoot], cwd: dir)
            XCTAssertEqual(build.status, 0, "\(file) did not build out of tree:\n\(build.stdout)\n\(build.stderr)")
            guard build.status == 0 else { continue }

            let run = try TestProcess.run(TestProcess.transhost, ["run", "--scenario", dir + "/plugins/slide-in/demo.json",
                                                                  "--plugins", dir + "/plugins", "--out", dir + "/out", "--trace-only"])
            XCTAssertEqual(run.status, 0, "\(file):\n\(run.stdout)\n\(run.stderr)")
            XCTAssertTrue(run.stdout.contains("#0 navigation push ListController -> DetailController  slide-in/slide-in"), "\(file) animated the push:\n\(run.stdout)")
            XCTAssertTrue(run.stdout.contains("#1 navigation pop DetailController -> ListController  slide-in/slide-in"), "\(file) animated the pop:\n\(run.stdout)")
            XCTAssertFalse(run.stdout.contains("breach"), "\(file):\n\(run.stdout)")
        }
    }
}
