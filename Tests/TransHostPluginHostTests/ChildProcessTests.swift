import XCTest
@testable import TransHostPluginHost
#if canImport(Glibc)
import Glibc
#endif

/// A child gets each descriptor it is given under the number it is given it, even when the
/// host's descriptor numbers are the child's numbers of other mappings (a playback worker's
/// status page opened as fd 3, where its result pipe goes): the worker otherwise found a pipe
/// where its status page should be and exited with status 71 before it played.
final class ChildProcessTests: XCTestCase {
    private var savedExecutable: String?

    override func setUp() { savedExecutable = ChildProcess.executable }
    override func tearDown() { ChildProcess.executable = savedExecutable }

    /// Two neighbouring descriptor numbers this process has free.
    func freePair() throws -> Int32 {
        for n in Int32(40)..<Int32(250) where fcntl(n, F_GETFD) < 0 && fcntl(n + 1, F_GETFD) < 0 { return n }
        throw XCTSkip("no two free descriptor numbers between 40 and 250")
    }

    func read(_ fd: Int32) -> String {
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let k = Glibc.read(fd, &buffer, buffer.count)
            if k <= 0 { break }
            bytes += buffer[0..<k]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testDescriptorsWhoseNumbersCrossAreEachPassedWhereAsked() throws {
        let bash = "/bin/bash"
        guard access(bash, X_OK) == 0 else { throw XCTSkip("no \(bash)") }
        let n = try freePair()
        var a: [Int32] = [-1, -1], b: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&a), 0)
        XCTAssertEqual(pipe(&b), 0)
        // The host holds pipe a's write end as fd n + 1 and pipe b's as fd n; the child is to
        // get a's as fd n and b's as fd n + 1, so each number is both a source and a target.
        XCTAssertEqual(dup2(a[1], n + 1), n + 1)
        XCTAssertEqual(dup2(b[1], n), n)
        for fd in [a[1], b[1], n, n + 1] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        close(a[1]); close(b[1])
        ChildProcess.executable = bash
        let pid = try ChildProcess.spawn(["-c", "echo a >&\(n); echo b >&\(n + 1)"], descriptors: [(n, n + 1), (n + 1, n)])
        close(n); close(n + 1)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, 0), pid)
        XCTAssertEqual(status, 0, "the child wrote to both descriptors")
        XCTAssertEqual(read(a[0]), "a\n", "the child's fd \(n) is pipe a's")
        XCTAssertEqual(read(b[0]), "b\n", "the child's fd \(n + 1) is pipe b's")
        close(a[0]); close(b[0])
    }
}
