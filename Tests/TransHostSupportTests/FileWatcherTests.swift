import Foundation
import TransHostSupport
import XCTest

/// The watcher behind `run --watch`: bursts of events become one change, only files whose
/// stamp changed are reported, a stop request ends the wait, and inotify sees both a write in
/// place and a rename over the file.
final class FileWatcherTests: XCTestCase {
    /// Delivers scripted batches, then empty batches (timeouts) forever, or nil once `ended`.
    final class ScriptedSource: FileEventSource {
        var batches: [[String]]
        var ended = false
        var watched: [String] = []
        init(_ batches: [[String]]) { self.batches = batches }
        func watch(_ files: [String]) throws { watched = files }
        func next(timeout: Double) -> [String]? {
            if !batches.isEmpty { return batches.removeFirst() }
            return ended ? nil : []
        }
    }

    var dir = ""
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { [dir] in try? FileManager.default.removeItem(atPath: dir) }
    }

    func write(_ name: String, _ text: String) throws -> String {
        let p = dir + "/" + name
        try text.write(toFile: p, atomically: false, encoding: .utf8)
        return p
    }

    func testABurstOfEventsIsOneChangeAndUnchangedFilesAreNotReported() throws {
        let a = try write("a.json", "1"), b = try write("b.json", "1")
        let source = ScriptedSource([])
        let watcher = try FileWatcher(files: [a, b], source: source)
        XCTAssertEqual(source.watched, [a, b])
        _ = try write("a.json", "22")
        // Three events for a (truncate, write, close) and one for b, whose content did not change.
        source.batches = [[a], [a, b], [a]]
        XCTAssertEqual(watcher.waitForChange(), [a])
        // The same stamp again is no change: the watcher keeps waiting until told to stop.
        source.batches = [[a]]
        var polls = 0
        XCTAssertNil(watcher.waitForChange { polls += 1; return polls > 5 })
    }

    func testTheWaitEndsWhenTheSourceEnds() throws {
        let a = try write("a.json", "1")
        let source = ScriptedSource([])
        source.ended = true
        XCTAssertNil(try FileWatcher(files: [a], source: source).waitForChange())
    }

    func testInotifySeesAWriteInPlaceAndARenameOverTheFile() throws {
        let a = try write("scenario.json", "{}")
        let lib = try write("libx.so", "old")
        let watcher = try FileWatcher(files: [a, lib], source: try InotifyEventSource(), settle: 0.05)
        _ = try write("scenario.json", "{\"name\": \"x\"}")
        XCTAssertEqual(watcher.waitForChange(), [a])
        // A linker or `cp` writes elsewhere and renames over the library.
        _ = try write("libx.so.tmp", "new contents")
        XCTAssertEqual(rename(dir + "/libx.so.tmp", lib), 0)
        XCTAssertEqual(watcher.waitForChange(), [lib])
    }
}

extension FileWatcherTests {
    /// A change made after the files were read but before the watch began is not lost.
    func testAChangeBeforeTheWatchBeganIsReportedAtOnce() throws {
        let a = try write("a.json", "1")
        let baseline = FileWatcher.stamps(of: [a])
        _ = try write("a.json", "changed while the run played")
        let watcher = try FileWatcher(files: [a], source: ScriptedSource([]), baseline: baseline)
        XCTAssertEqual(watcher.waitForChange(), [a])
    }
}
