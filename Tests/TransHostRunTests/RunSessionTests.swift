import Foundation
import TransHostDiscovery
import TransHostRun
import TransHostScenario
import TransHostSupport
import XCTest

/// The run pipeline without plugins: the built-in scenario played, written and compared.
final class RunSessionTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/transhost-run-tests-XXXXXX".utf8CString)
        dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        addTeardownBlock { [dir] in _ = try? FileManager.default.removeItem(atPath: dir) }
    }

    func session(_ configure: (inout RunOptions) -> Void = { _ in }) -> RunSession {
        var o = RunOptions()
        o.pictures.gif = false
        o.pictures.sheet = false
        configure(&o)
        return RunSession(scan: PluginScan(records: [], warnings: []), options: o)
    }

    func testARunWritesTheTraceAndAnIndexOfItsFiles() throws {
        let out = dir + "/out"
        let reports = session().run([RunJob(scenario: .builtInDefault, outDir: out)])
        XCTAssertEqual(reports.count, 1)
        XCTAssertNil(reports[0].failure)
        XCTAssertEqual(reports[0].files, [out + "/trace.json"])
        XCTAssertEqual(OutputIndex.read(in: out).files, ["trace.json"])
        XCTAssertEqual(reports[0].result.transitions.map(\.record.operation.rawValue), ["push", "pop"])
    }

    func testTheIndexRemovesOnlyTheFilesItLists() throws {
        try FileIO.writeAtomically(dir + "/old.gif", "x")
        try FileIO.writeAtomically(dir + "/keep.txt", "x")
        try OutputIndex.write([dir + "/old.gif", "/elsewhere/file"], in: dir)
        OutputIndex.read(in: dir).removeFiles(in: dir)
        XCTAssertFalse(FileIO.exists(dir + "/old.gif"))
        XCTAssertTrue(FileIO.exists(dir + "/keep.txt"))
    }

    func testAnIndexNeverReachesOutsideItsDirectory() throws {
        try FileIO.writeAtomically(dir + "/outside.txt", "x")
        try FileIO.makeDirectories(dir + "/out")
        try FileIO.writeAtomically(OutputIndex.path(in: dir + "/out"), "../outside.txt\n/etc/passwd\n")
        XCTAssertEqual(OutputIndex.read(in: dir + "/out").files, [])
        XCTAssertTrue(FileIO.exists(dir + "/outside.txt"))
    }

    func testTheSameRunComparedWithItselfMatchesAndAnotherFrameRateIsAClearError() throws {
        let golden = dir + "/golden"
        session().run([RunJob(scenario: .builtInDefault, outDir: golden)])
        let same = session { $0.expect = RunOptions.Expectation(path: golden) }.run([RunJob(scenario: .builtInDefault, outDir: dir + "/same")])
        XCTAssertEqual(same.first?.comparison?.matches, true)
        let other = session {
            $0.expect = RunOptions.Expectation(path: golden)
            $0.fps = FrameRate(30)!
        }.run([RunJob(scenario: .builtInDefault, outDir: dir + "/other")])
        XCTAssertNil(other.first?.comparison, "another frame rate is not compared frame by frame")
        XCTAssertEqual(other.first?.failure, .fpsDiffers(golden: golden + "/trace.json", expected: 60, actual: 30))
        XCTAssertTrue(other.first?.failure?.description.contains("run with --fps 60") ?? false)
    }

    func testAMissingGoldenIsAFailureThatNamesItWhenNothingMayBeRecorded() {
        let r = session {
            $0.expect = RunOptions.Expectation(path: dir + "/nope.json")
            $0.expect?.recordMode = .never
        }.run([RunJob(scenario: .builtInDefault, outDir: dir + "/o")])
        XCTAssertEqual(r.first?.failure, .missingGolden(path: dir + "/nope.json"))
    }

    func testScaleAndParametersReachTheTrace() throws {
        let out = dir + "/out"
        session { $0.scale = PixelScale(3) }.run([RunJob(scenario: .builtInDefault, outDir: out)])
        let trace = try JSONParser.parse(bytes: try FileIO.readAll(out + "/trace.json"))
        XCTAssertEqual(trace["device"]?["scale"]?.doubleValue, 3)
        XCTAssertNil(trace["parameters"])
    }
}
