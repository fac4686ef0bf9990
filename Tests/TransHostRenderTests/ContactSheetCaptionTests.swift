import XCTest
import TransHostCore
@testable import TransHostRender

/// A contact sheet says which transition it shows, and a cancelled or breached one cannot pass
/// for a normal one. Set TRANSHOST_RENDER_PREVIEW=DIR to keep the sheets for a look.
final class ContactSheetCaptionTests: XCTestCase {
    private func thumbnails() -> [(image: RGBAImage, time: Double)] {
        (0..<4).map { k in
            let img = RGBAImage(width: 320, height: 568)
            img.fill(Color(red: 0.2 + 0.2 * Double(k), green: 0.5, blue: 0.9))
            return (img, Double(k) * 0.1)
        }
    }

    private func caption(outcome: String = "completed", breaches: [String] = []) -> ContactSheet.Caption {
        ContactSheet.Caption(animator: "fade-scale/fade-scale", transition: "#0 navigation push", fromTo: "A \u{2192} B",
                             duration: 0.25, outcome: outcome, breaches: breaches)
    }

    private func keep(_ sheet: RGBAImage, _ name: String) throws {
        guard let dir = ProcessInfo.processInfo.environment["TRANSHOST_RENDER_PREVIEW"] else { return }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try PNGWriter.write(sheet, to: dir + "/caption-\(name).png")
    }

    /// Rows of the header holding dark (text) pixels, left of the badges.
    private func textRows(_ sheet: RGBAImage, below y0: Int, above y1: Int) -> [Int] {
        (y0..<y1).filter { y in (10..<400).contains { x in let p = sheet.pixel(x: x, y: y); return Int(p.r) + Int(p.g) + Int(p.b) < 300 } }
    }

    private func isOrange(_ p: RGBA8) -> Bool { p.r > 200 && p.g > 90 && p.g < 140 && p.b < 30 }
    private func isRed(_ p: RGBA8) -> Bool { p.r > 180 && p.g < 50 && p.b < 50 }

    func testTheCaptionNamesTheTransitionInLegibleText() throws {
        let plain = ContactSheet.make(frames: thumbnails())
        let sheet = ContactSheet.make(frames: thumbnails(), caption: caption())
        try keep(sheet, "completed")
        XCTAssertEqual(sheet.width, plain.width)
        XCTAssertEqual(sheet.height, plain.height + 52, "the caption sits above the thumbnails")
        // Two lines of text: the title (15 px bold) and the details (13 px); each at least 9 px
        // of ink high, which is what 12 px and larger type gives.
        let title = textRows(sheet, below: 4, above: 28), details = textRows(sheet, below: 30, above: 50)
        XCTAssertGreaterThanOrEqual(title.count, 10)
        XCTAssertGreaterThanOrEqual(details.count, 9)
        XCTAssertEqual(ContactSheet.Caption(animator: "a/b", transition: "#1 modal present", fromTo: "X \u{2192} Y", duration: 1.3,
                                            outcome: "completed", interactive: true).detailLine,
                       "a/b  \u{00B7}  1.3 s  \u{00B7}  interactive  \u{00B7}  completed")
        // No mark on a normal transition.
        XCTAssertFalse(isOrange(sheet.pixel(x: 3, y: sheet.height / 2)) || isRed(sheet.pixel(x: 3, y: sheet.height / 2)))
    }

    func testACancelledTransitionIsMarkedOrange() throws {
        let sheet = ContactSheet.make(frames: thumbnails(), caption: caption(outcome: "cancelled"))
        try keep(sheet, "cancelled")
        XCTAssertTrue(isOrange(sheet.pixel(x: 3, y: sheet.height / 2)), "an orange frame round the sheet: \(sheet.pixel(x: 3, y: sheet.height / 2))")
        XCTAssertTrue(isOrange(sheet.pixel(x: sheet.width - 14, y: 10)), "an orange badge at the top right")
    }

    func testABreachedTransitionIsMarkedRedWithItsBreaches() throws {
        let breaches = ["never-completed: completeTransition was not called within 5 s", "to-view-missing: the to-view is not in the container",
                        "invalid-value: alpha is NaN", "completed-twice: completeTransition was called twice"]
        let plain = ContactSheet.make(frames: thumbnails(), caption: caption())
        let sheet = ContactSheet.make(frames: thumbnails(), caption: caption(breaches: breaches))
        try keep(sheet, "breached")
        XCTAssertTrue(isRed(sheet.pixel(x: 3, y: sheet.height / 2)))
        XCTAssertTrue(isRed(sheet.pixel(x: sheet.width - 14, y: 10)), "a red badge at the top right")
        XCTAssertEqual(sheet.height, plain.height + 3 * 18 + 4, "three breach lines, the rest counted")
        let red = (52..<110).filter { y in (10..<300).contains { x in isRed(sheet.pixel(x: x, y: y)) } }
        XCTAssertGreaterThan(red.count, 20, "the breaches are written in red")
    }

    func testLongTextIsCutToFitNotOverflowing() {
        let long = ContactSheet.Caption(animator: String(repeating: "very-long-plugin-name/", count: 10), transition: "#12 navigation push",
                                        fromTo: "AVeryLongControllerTypeName \u{2192} AnotherVeryLongControllerTypeName", duration: 2, outcome: "cancelled")
        let sheet = ContactSheet.make(frames: thumbnails(), caption: long, columns: 2, thumbnailWidth: 100)
        // The right edge, inside the frame, stays clear of text.
        for y in 30..<50 { XCTAssertFalse(Int(sheet.pixel(x: sheet.width - 9, y: y).r) < 128, "text runs into the edge at y = \(y)") }
    }
}

/// The HTML report crops a sheet's cells where `ContactSheet.layout` says they are, so the
/// sheet drawn one frame at a time must put every thumbnail exactly there.
final class ContactSheetLayoutTests: XCTestCase {
    func testEveryThumbnailIsWhereTheLayoutSays() {
        for breaches in [[], ["one"], ["one", "two", "three", "four"]] {
            let caption = ContactSheet.Caption(animator: "a/b", transition: "#0 navigation push", fromTo: "A \u{2192} B",
                                               duration: 0.25, outcome: "completed", breaches: breaches)
            let count = 6
            let layout = ContactSheet.layout(count: count, frameWidth: 320, frameHeight: 568, caption: caption)
            let colours = (0..<count).map { k in Color(red: 1, green: Double(k) / Double(count), blue: 0) }
            let sheet = ContactSheet.make(frames: colours.enumerated().map { k, c in
                let img = RGBAImage(width: 320, height: 568)
                img.fill(c)
                return (img, Double(k) * 0.1)
            }, caption: caption)
            XCTAssertEqual(sheet.width, layout.width)
            XCTAssertEqual(sheet.height, layout.height)
            for (k, cell) in layout.cells.enumerated() {
                let p = sheet.pixel(x: cell[0] + cell[2] / 2, y: cell[1] + cell[3] / 2)
                XCTAssertEqual(Int(p.r), 255, "cell \(k) with \(breaches.count) breaches")
                XCTAssertEqual(Double(p.g), (colours[k].green * 255).rounded(), accuracy: 1, "cell \(k)")
                // Just outside the thumbnail's left edge is the sheet's background or border, not the frame.
                let outside = sheet.pixel(x: cell[0] - 3, y: cell[1] + cell[3] / 2)
                XCTAssertFalse(outside.r == 255 && outside.b == 0 && outside.g == p.g, "cell \(k) starts at x = \(cell[0])")
            }
        }
    }
}
