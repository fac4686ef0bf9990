import Foundation
import XCTest

/// The header's inline 3D-transform helpers compute what Core Animation's CATransform3D
/// functions do: a C program built against the header (strict C11, all warnings errors) prints
/// where its transforms send a few points, and the test checks them.
final class Transform3DHelperTests: XCTestCase {
    func testHelpersMatchCoreAnimation() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-t3d-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("t.c").path, exe = dir.appendingPathComponent("t").path
        try """
        #include "transhost.h"
        #include <stdio.h>
        static void show(const char *label, th_transform3d m, double x, double y) {
            /* row vector (x, y, 0, 1) times m, then the perspective divide */
            double X = x * m.m11 + y * m.m21 + m.m41, Y = x * m.m12 + y * m.m22 + m.m42, W = x * m.m14 + y * m.m24 + m.m44;
            printf("%s %.6f %.6f\\n", label, X / W, Y / W);
        }
        int main(void) {
            const double quarter = 1.5707963267948966;
            th_transform3d id = th_transform3d_identity();
            show("identity", id, 3, 4);
            show("rotate", th_transform3d_rotate(id, quarter, 0, 0, 1), 1, 0);
            show("scale", th_transform3d_scale(id, 2, 3, 1), 1, 1);
            show("translate", th_transform3d_translate(id, 10, 20, 0), 1, 1);
            /* CATransform3DTranslate(CATransform3DMakeRotation(q, 0, 0, 1), 10, 0, 0): the
             * translation happens in the rotated frame, so it moves the point down, not right. */
            show("translate-rotated", th_transform3d_translate(th_transform3d_rotate(id, quarter, 0, 0, 1), 10, 0, 0), 0, 0);
            show("concat", th_transform3d_concat(th_transform3d_scale(id, 2, 2, 1), th_transform3d_translate(id, 5, 0, 0)), 1, 0);
            th_transform3d p = id; p.m34 = -1.0 / 500;
            show("perspective-rotate-zero-axis", th_transform3d_rotate(p, 1, 0, 0, 0), 100, 0);
            return 0;
        }
        """.write(toFile: src, atomically: true, encoding: .utf8)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        cc.arguments = ["-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", HeaderCompileTests.includeDirectory, src, "-o", exe, "-lm"]
        try cc.run(); cc.waitUntilExit()
        XCTAssertEqual(cc.terminationStatus, 0)
        let run = Process(), out = Pipe()
        run.executableURL = URL(fileURLWithPath: exe)
        run.standardOutput = out
        try run.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        var got: [String: (Double, Double)] = [:]
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            got[String(f[0])] = (Double(f[1])!, Double(f[2])!)
        }
        func check(_ label: String, _ x: Double, _ y: Double, file: StaticString = #filePath, line: UInt = #line) {
            guard let g = got[label] else { return XCTFail("no \(label) in \(text)", file: file, line: line) }
            XCTAssertEqual(g.0, x, accuracy: 1e-6, label, file: file, line: line)
            XCTAssertEqual(g.1, y, accuracy: 1e-6, label, file: file, line: line)
        }
        check("identity", 3, 4)
        check("rotate", 0, 1)
        check("scale", 2, 3)
        check("translate", 11, 21)
        check("translate-rotated", 0, 10)
        check("concat", 7, 0)
        check("perspective-rotate-zero-axis", 100, 0)
    }
}
