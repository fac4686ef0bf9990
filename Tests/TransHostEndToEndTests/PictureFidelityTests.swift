import Foundation
import TransHostRender
import TransHostTestSupport
import XCTest

/// The pictures `transhost run` writes show what the renderer drew.
final class PictureFidelityTests: XCTestCase {
    /// A settings-style pair of screens on iOS's grey (239, 239, 244): flat fills, a title and
    /// hairline rows, pushed with fade-scale.
    static let scenario = """
    {
      "format": "transhost-scenario/1",
      "name": "grey",
      "device": "iphone-5",
      "types": {"A": "UIViewController", "B": "UIViewController"},
      "controllers": {
        "a": {"type": "A", "view": {"background": "#efeff4", "subviews": [
          {"frame": [0, 0, 320, 64], "background": "#f7f7f7", "subviews": [
            {"frame": [0, 20, 320, 44], "text": {"string": "Settings", "size": 17, "color": "#000000"}}]},
          {"frame": [0, 100, 320, 44], "background": "#ffffff"},
          {"frame": [0, 160, 320, 44], "background": "#ffffff"}]}},
        "b": {"type": "B", "view": {"background": "#efeff4", "subviews": [
          {"frame": [16, 120, 288, 88], "background": "#ffffff", "cornerRadius": 10}]}}
      },
      "root": {"container": "navigation", "stack": ["a"]},
      "script": [{"action": "push", "controller": "b"}]
    }
    """

    func testEveryColourOfAFlatDemoFrameSurvivesIntoTheGIF() throws {
        let tmp = try TestProcess.temporaryDirectory(self)
        let plugins = tmp + "/plugins"
        _ = try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
        try Self.scenario.write(toFile: tmp + "/grey.json", atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["run", "--scenario", tmp + "/grey.json", "--plugins", plugins, "--out", tmp + "/out",
                                       "--gif", "--at", "0,1", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let gif = try DecodedGIF(path: tmp + "/out/transition-0-push.gif")
        let first = try PNGReader.read(tmp + "/out/transition-0-push-f000-0ms.png")
        let last = try PNGReader.read(tmp + "/out/transition-0-push-f015-250ms.png")
        func rgb(_ image: RGBAImage) -> [UInt32] {
            var out: [UInt32] = []
            for y in 0..<image.height { for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                out.append(UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b))
            } }
            return out
        }
        let expectedFirst = rgb(first), expectedLast = rgb(last)
        XCTAssertLessThanOrEqual(Set(expectedFirst).count, 256, "the t = 0 frame is flat-coloured")
        XCTAssertEqual(gif.width * gif.height, expectedFirst.count)
        let grey: UInt32 = 239 << 16 | 239 << 8 | 244
        XCTAssertGreaterThan(expectedFirst.filter { $0 == grey }.count, 50_000)
        let wrongFirst = zip(gif.canvases[0], expectedFirst).filter { $0 != $1 }.count
        XCTAssertEqual(wrongFirst, 0, "the GIF opens on the t = 0 frame, every colour exact")
        let wrongLast = zip(gif.canvases.last!, expectedLast).filter { $0 != $1 }.count
        XCTAssertEqual(wrongLast, 0, "the GIF ends on the final frame, every colour exact")
        // 16 frames at 60 fps fit under 50 fps only as every 2nd: 0, 2, ..., 14, 15.
        XCTAssertEqual(gif.canvases.count, 9)
        XCTAssertEqual(gif.delays.last, 50, "the end state is held half a second before the loop restarts")
        XCTAssertEqual(gif.delays.reduce(0, +), 25 + 50)
        XCTAssertTrue(gif.loops)
    }

    func testFormatWebPWritesALosslessAnimationInsteadOfTheGIF() throws {
        let tmp = try TestProcess.temporaryDirectory(self)
        let plugins = tmp + "/plugins"
        _ = try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
        let r = try BuildProducts.run(["run", "--scenario", "default", "--plugins", plugins, "--out", tmp + "/out", "--scale", "1", "--format", "webp"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("wrote \(tmp)/out/transition-0-push.webp"), r.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out/transition-0-push.gif"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tmp + "/out/transition-0-push.webp"))
        XCTAssertEqual(String(decoding: bytes.prefix(4), as: UTF8.self) + String(decoding: bytes[8..<12], as: UTF8.self), "RIFFWEBP")
        let bad = try BuildProducts.run(["run", "--scenario", "default", "--plugins", plugins, "--out", tmp + "/x", "--format", "png"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--format must be gif or webp, got \"png\""), bad.stderr)
    }
}
