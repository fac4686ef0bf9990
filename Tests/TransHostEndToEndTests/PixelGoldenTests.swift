import Foundation
import TransHostRender
import XCTest

/// `run --record` and `run --expect` with pixel goldens, as a CI job uses them.
final class PixelGoldenTests: XCTestCase {
    var tmp = ""
    var base: [String] = []

    override func setUpWithError() throws {
        tmp = try BuildProducts.temporaryDirectory(self)
        let plugins = tmp + "/plugins"
        _ = try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
        // The built-in scenario (A pushes B with fade-scale, B pops back) at @1x, pictures only
        // where a golden needs them.
        base = ["run", "--scenario", "default", "--plugins", plugins, "--scale", "1", "--gif"]
    }

    private func red(_ image: RGBAImage) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for y in 0..<image.height { for x in 0..<image.width {
            let p = image.pixel(x: x, y: y)
            if p.r == 255 && p.g == 0 && p.b == 0 { out.append((x, y)) }
        } }
        return out
    }

    /// The on-screen rectangle (points) of view `name` at frame `k` of transition 0.
    private func rect(trace path: String, view name: String, frame k: Int) throws -> (Double, Double, Double, Double) {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        let frames = ((json["transitions"] as! [[String: Any]])[0]["frames"] as! [[String: Any]])
        let view = (frames[k]["views"] as! [[String: Any]]).first { $0["name"] as? String == name }!
        let b = view["bounds"] as! [Double], p = view["position"] as! [Double], m = view["transform"] as! [Double]
        let w = b[2] * m[0], h = b[3] * m[5]
        return (p[0] - w / 2, p[1] - h / 2, p[0] + w / 2, p[1] + h / 2)
    }

    func testAChangedParameterFailsWithADiffWhoseRedPixelsAreWhereTheViewMoved() throws {
        let record = try BuildProducts.run(base + ["--out", tmp + "/o1", "--record", tmp + "/golden", "--at", "0.5"])
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertTrue(record.stdout.contains("recorded \(tmp)/golden/transition-0-push-f007-117ms.png (--record-mode all)"), record.stdout)
        let same = try BuildProducts.run(base + ["--out", tmp + "/o2", "--expect", tmp + "/golden", "--record-mode", "never"])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.contains("2 frames match \(tmp)/golden"), same.stdout)

        let changed = try BuildProducts.run(base + ["--out", tmp + "/o3", "--expect", tmp + "/golden", "--record-mode", "never",
                                                    "--param", "fade-scale.scale=0.5"])
        XCTAssertEqual(changed.status, 1, changed.stdout + changed.stderr)
        XCTAssertTrue(changed.stdout.contains("FRAME MISMATCH transition 0, frame 7 against \(tmp)/golden/transition-0-push-f007-117ms.png"), changed.stdout)
        let stem = tmp + "/o3/transition-0-push-f007-117ms"
        for suffix in ["expected", "actual", "diff"] { XCTAssertTrue(FileManager.default.fileExists(atPath: "\(stem)-\(suffix).png"), suffix) }
        let diff = try PNGReader.read(stem + "-diff.png")
        let changedPixels = red(diff)
        XCTAssertGreaterThan(changedPixels.count, 500)
        // The from-view A shrinks to 0.1 in the golden and to 0.5 now: every red pixel lies in
        // the larger of its two rectangles at that frame, and outside the smaller one's inside.
        let now = try rect(trace: tmp + "/o3/trace.json", view: "A", frame: 7)
        let then = try rect(trace: tmp + "/golden/trace.json", view: "A", frame: 7)
        XCTAssertGreaterThan(now.2 - now.0, then.2 - then.0)
        for (x, y) in changedPixels {
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            XCTAssertTrue(px >= now.0 - 1 && px <= now.2 + 1 && py >= now.1 - 1 && py <= now.3 + 1, "red pixel (\(x), \(y)) outside the view's rectangle \(now)")
        }
        // Nothing outside that rectangle changed, so the diff shows the rest faded, not red.
        XCTAssertEqual(diff.pixel(x: 2, y: 300).r, diff.pixel(x: 2, y: 300).g)
        // Within a generous allowance the same change passes.
        let loose = try BuildProducts.run(base + ["--out", tmp + "/o4", "--expect", tmp + "/golden", "--record-mode", "never",
                                                  "--param", "fade-scale.scale=0.5", "--max-diff-ratio", "0.9", "--tolerance", "1"])
        XCTAssertEqual(loose.status, 0, loose.stdout + loose.stderr)
    }

    func testMissingGoldensAreRecordedAndSaidSo() throws {
        let first = try BuildProducts.run(base + ["--out", tmp + "/o1", "--expect", tmp + "/golden", "--at", "0,1"])
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        XCTAssertTrue(first.stdout.contains("recorded \(tmp)/golden/trace.json (no golden yet)"), first.stdout)
        XCTAssertTrue(first.stdout.contains("recorded \(tmp)/golden/transition-1-pop-f021-350ms.png (no golden yet)"), first.stdout)
        let again = try BuildProducts.run(base + ["--out", tmp + "/o1", "--expect", tmp + "/golden", "--at", "0,1"])
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.contains("matches \(tmp)/golden/trace.json"), again.stdout)
        XCTAssertTrue(again.stdout.contains("4 frames match"), again.stdout)
        XCTAssertFalse(again.stdout.contains("recorded"), again.stdout)
        // --frames all records every frame: 16 + 22 of them.
        let all = try BuildProducts.run(base + ["--out", tmp + "/o2", "--record", tmp + "/every", "--frames", "all", "-q"])
        XCTAssertEqual(all.status, 0, all.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: tmp + "/every").filter { $0.hasSuffix("ms.png") }
        XCTAssertEqual(names.count, 16 + 22)
        // --record-mode never writes nothing, and a missing golden trace is an error.
        let never = try BuildProducts.run(base + ["--out", tmp + "/o3", "--expect", tmp + "/nothing", "--record-mode", "never"])
        XCTAssertEqual(never.status, 5)
        XCTAssertTrue(never.stderr.contains("\(tmp)/nothing/trace.json does not exist; record goldens with --record DIR"), never.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/nothing"))
    }

    func testACorruptedOrSwappedGoldenPNGIsCaughtAndFailedModeRerecordsIt() throws {
        XCTAssertEqual(try BuildProducts.run(base + ["--out", tmp + "/o1", "--record", tmp + "/golden", "--at", "0,1", "-q"]).status, 0)
        let g = tmp + "/golden/transition-0-push-f015-250ms.png"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: g))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: g))
        let corrupt = try BuildProducts.run(base + ["--out", tmp + "/o2", "--expect", tmp + "/golden", "--record-mode", "never"])
        XCTAssertEqual(corrupt.status, 1, corrupt.stdout)
        XCTAssertTrue(corrupt.stdout.contains("FRAME MISMATCH transition 0, frame 15 against \(g): \(g) is not a readable PNG: chunk IDAT"), corrupt.stdout)
        XCTAssertTrue(corrupt.stdout.contains("fails its CRC check"), corrupt.stdout)
        // A readable PNG of another frame is caught by its pixels.
        try FileManager.default.removeItem(atPath: g)
        try FileManager.default.copyItem(atPath: tmp + "/golden/transition-0-push-f000-0ms.png", toPath: g)
        let swapped = try BuildProducts.run(base + ["--out", tmp + "/o2", "--expect", tmp + "/golden", "--record-mode", "failed"])
        XCTAssertEqual(swapped.status, 1, swapped.stdout)
        XCTAssertTrue(swapped.stdout.contains("FRAME MISMATCH transition 0, frame 15"), swapped.stdout)
        XCTAssertTrue(swapped.stdout.contains("re-recorded \(g) (--record-mode failed)"), swapped.stdout)
        let fixed = try BuildProducts.run(base + ["--out", tmp + "/o3", "--expect", tmp + "/golden", "--record-mode", "never"])
        XCTAssertEqual(fixed.status, 0, fixed.stdout)
    }

    func testGoldenOptionsAreCheckedWhereTheyAreParsed() throws {
        for (args, message) in [(["--record-mode", "all"], "--record-mode only applies with --expect"),
                                (["--expect", tmp, "--record-mode", "sometimes"], "--record-mode must be one of missing, all, never, failed"),
                                (["--expect", tmp, "--threshold", "2"], "--threshold must be a number from 0 to 1"),
                                (["--expect", tmp, "--max-diff-pixels", "-1"], "--max-diff-pixels must be an integer >= 0"),
                                (["--expect", tmp, "--record", tmp], "give --expect DIR or --record DIR, not both"),
                                (["--frames", "all", "--at", "0"], "--frames all writes every frame; it cannot be combined with --at")] {
            let r = try BuildProducts.run(base + args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }
}
