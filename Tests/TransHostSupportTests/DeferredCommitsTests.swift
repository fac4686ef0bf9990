import Foundation
@testable import TransHostSupport
import TransHostTestSupport
import XCTest

/// Atomic writes whose sync and rename run on another thread: every file is in place, whole,
/// once `finish()` returns; a file that cannot take its name is reported with its path and
/// leaves no temporary file; writes outside `deferring` are in place when they return.
final class DeferredCommitsTests: XCTestCase {
    var dir = ""
    override func setUpWithError() throws { dir = try TestProcess.temporaryDirectory(self, prefix: "commits") }

    func names() throws -> [String] { try FileIO.list(dir) }

    func testEveryDeferredFileIsInPlaceAndWholeOnceFinished() throws {
        let commits = DeferredCommits()
        try commits.deferring {
            for k in 0..<200 {
                if k % 2 == 0 {
                    try FileIO.writeAtomically("\(dir)/f\(k).txt", Array(repeating: UInt8(k), count: 1000 + k))
                } else {
                    try FileIO.writeAtomically("\(dir)/f\(k).txt") { tmp in
                        try Array(repeating: UInt8(k), count: 1000 + k).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: tmp)) }
                    }
                }
            }
            // The same file twice before either commit: the later one wins.
            try FileIO.writeAtomically("\(dir)/twice.txt", "first")
            try FileIO.writeAtomically("\(dir)/twice.txt", "second")
        }
        try commits.finish()
        for k in 0..<200 {
            XCTAssertEqual(try FileIO.readAll("\(dir)/f\(k).txt"), Array(repeating: UInt8(k), count: 1000 + k), "f\(k).txt")
        }
        XCTAssertEqual(try FileIO.readString("\(dir)/twice.txt"), "second")
        XCTAssertEqual(try names().filter { $0.hasPrefix(".") }, [], "no temporary file is left")
        XCTAssertEqual(try names().count, 201)
    }

    func testManyWritersWithCommitsOfTheirOwnAllArrive() throws {
        // Eight jobs at once, each with its own commits, sharing the process's room for them.
        let dir = self.dir
        let failures = UnsafeMutablePointer<Int>.allocate(capacity: 8)
        failures.initialize(repeating: 0, count: 8)
        defer { failures.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 8) { job in
            let commits = DeferredCommits()
            do {
                try commits.deferring {
                    for k in 0..<50 { try FileIO.writeAtomically("\(dir)/j\(job)-\(k).bin", Array(repeating: UInt8((job * 50 + k) % 256), count: 4096)) }
                }
                try commits.finish()
            } catch { failures[job] += 1 }
        }
        XCTAssertEqual(Array(UnsafeBufferPointer(start: failures, count: 8)), Array(repeating: 0, count: 8))
        for job in 0..<8 {
            for k in 0..<50 {
                XCTAssertEqual(try FileIO.readAll("\(dir)/j\(job)-\(k).bin"), Array(repeating: UInt8((job * 50 + k) % 256), count: 4096))
            }
        }
        XCTAssertEqual(try names().filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }

    func testAFileThatCannotTakeItsNameIsReportedAndTheOthersArrive() throws {
        // A non-empty directory where the file should go: rename(2) cannot replace it.
        try FileManager.default.createDirectory(atPath: "\(dir)/blocked.gif/inside", withIntermediateDirectories: true)
        let commits = DeferredCommits()
        try commits.deferring {
            try FileIO.writeAtomically("\(dir)/a.txt", "a")
            try FileIO.writeAtomically("\(dir)/blocked.gif", "gif")
            try FileIO.writeAtomically("\(dir)/b.txt", "b")
        }
        XCTAssertThrowsError(try commits.finish()) { error in
            let failure = error as? FileIO.Failure
            XCTAssertEqual(failure?.path, "\(dir)/blocked.gif", "\(error)")
        }
        XCTAssertEqual(try FileIO.readString("\(dir)/a.txt"), "a")
        XCTAssertEqual(try FileIO.readString("\(dir)/b.txt"), "b")
        XCTAssertTrue(FileIO.isDirectory("\(dir)/blocked.gif"), "the path is untouched")
        XCTAssertEqual(try names().filter { $0.hasPrefix(".") }, [], "the failed file's temporary file is removed")
        // Reported once: a later finish has nothing more to say.
        XCTAssertNoThrow(try commits.finish())
    }

    func testWritesOutsideDeferringAreInPlaceWhenTheyReturn() throws {
        let commits = DeferredCommits()
        try commits.deferring { try FileIO.writeAtomically("\(dir)/inside.txt", "1") }
        try FileIO.writeAtomically("\(dir)/outside.txt", "2")
        XCTAssertEqual(try FileIO.readString("\(dir)/outside.txt"), "2")
        try commits.finish()
        XCTAssertEqual(try FileIO.readString("\(dir)/inside.txt"), "1")
    }

    /// A disk that fails the sync (EIO here) loses the new bytes: the file must not take its
    /// name, the old file stays, and the failure names the path, deferred or not.
    func testAFileWhoseSyncFailsKeepsTheOldFileAndIsReported() throws {
        try FileIO.writeAtomically("\(dir)/keep.txt", "old")
        DeferredCommits.syncResultForTesting = { $0.hasSuffix("/keep.txt") ? EIO : nil }
        defer { DeferredCommits.syncResultForTesting = nil }
        let commits = DeferredCommits()
        try commits.deferring {
            try FileIO.writeAtomically("\(dir)/keep.txt", "new")
            try FileIO.writeAtomically("\(dir)/other.txt") { tmp in try Data("other".utf8).write(to: URL(fileURLWithPath: tmp)) }
        }
        XCTAssertThrowsError(try commits.finish()) { error in
            let failure = error as? FileIO.Failure
            XCTAssertEqual(failure?.path, "\(dir)/keep.txt", "\(error)")
            XCTAssertTrue(failure?.reason.contains("could not be synced to disk") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try FileIO.writeAtomically("\(dir)/keep.txt", "newer")) { error in
            XCTAssertEqual((error as? FileIO.Failure)?.path, "\(dir)/keep.txt", "\(error)")
        }
        XCTAssertEqual(try FileIO.readString("\(dir)/keep.txt"), "old")
        XCTAssertEqual(try FileIO.readString("\(dir)/other.txt"), "other")
        XCTAssertEqual(try names().filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }

    /// A file written by path is opened again to be synced. With no descriptor left (EMFILE
    /// here: the limit lowered to the lowest free number while `body` runs), it must not take
    /// its name unsynced: the write fails naming the path, and the old file stays.
    func testAFileThatCannotBeOpenedAgainToSyncIsNotRenamedUnsynced() throws {
        try FileIO.writeAtomically("\(dir)/keep.bin", "old")
        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved), 0)
        defer { var restore = saved; _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &restore) }
        let written = Result {
            try FileIO.writeAtomically("\(dir)/keep.bin") { tmp in
                try Data("new".utf8).write(to: URL(fileURLWithPath: tmp))
                let lowest = open("/dev/null", O_RDONLY)
                guard lowest >= 0 else { return }
                close(lowest)
                var tight = saved
                tight.rlim_cur = rlim_t(lowest)
                _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &tight)
            }
        }
        var restore = saved
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &restore)
        XCTAssertThrowsError(try written.get()) { error in
            let failure = error as? FileIO.Failure
            XCTAssertEqual(failure?.path, "\(dir)/keep.bin", "\(error)")
            XCTAssertTrue(failure?.reason.contains("could not be opened again to sync it") ?? false, "\(error)")
        }
        XCTAssertEqual(try FileIO.readString("\(dir)/keep.bin"), "old")
        XCTAssertEqual(try names().filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }

    /// While the disk holds the first commit, a writer gets at most maximumWaiting files ahead
    /// (each holds an open file and a cleanup slot), then waits; all arrive once it moves.
    func testAWriterAheadOfTheDiskWaitsAtTheBound() throws {
        let bound = DeferredCommits.maximumWaiting, total = bound + 8
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        DeferredCommits.syncResultForTesting = { path in
            if path.hasSuffix("/w0.bin") { held.signal(); release.wait() }
            return nil
        }
        defer { DeferredCommits.syncResultForTesting = nil }
        final class Progress: @unchecked Sendable {
            let lock = NSLock()
            var count = 0, failure: Error?
            func add() { lock.lock(); count += 1; lock.unlock() }
            func load() -> Int { lock.lock(); defer { lock.unlock() }; return count }
        }
        let written = Progress(), done = DispatchSemaphore(value: 0)
        let dir = self.dir, commits = DeferredCommits()
        Thread.detachNewThread {
            do {
                try commits.deferring {
                    for k in 0..<total {
                        try FileIO.writeAtomically("\(dir)/w\(k).bin", Array(repeating: UInt8(k), count: 512))
                        written.add()
                    }
                }
                try commits.finish()
            } catch { written.failure = error }
            done.signal()
        }
        XCTAssertEqual(held.wait(timeout: .now() + 30), .success, "the first commit reached the disk")
        var waited = 0
        while written.load() < bound && waited < 3000 { usleep(10_000); waited += 1 }
        // The writer has had time to run past the bound if nothing stopped it.
        usleep(300_000)
        XCTAssertEqual(written.load(), bound, "files written while the first commit is held")
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertNil(written.failure)
        XCTAssertEqual(written.load(), total)
        for k in 0..<total { XCTAssertEqual(try FileIO.readAll("\(dir)/w\(k).bin"), Array(repeating: UInt8(k), count: 512), "w\(k).bin") }
    }
}
