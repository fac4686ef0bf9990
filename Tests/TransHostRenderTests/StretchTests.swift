import XCTest
import TransHostCore
@testable import TransHostRender

/// Resizable snapshots stretch when their size changes, as UIKit's do: without cap insets the
/// whole content scales; with them only the middle stretches and the caps keep their size.
final class StretchTests: XCTestCase {
    private let red = Color(red: 1, green: 0, blue: 0), green = Color(red: 0, green: 1, blue: 0), blue = Color(red: 0, green: 0, blue: 1)

    /// A 100 x 40 source: a red 10-pt band on the left, a green one on the right, blue between.
    /// Its resizable snapshot (insets left/right 10 when `caps`) is placed at (20, 100) and
    /// widened to 200 pt, then rendered @2x on black.
    private func render(caps: Bool, animated: Bool = false) -> (RGBAImage, View, AnimationEngine) {
        let e = AnimationEngine()
        let window = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 200), name: "window")
        let source = View(engine: e, frame: Rect(x: 0, y: 0, width: 100, height: 40), name: "source")
        source.backgroundColor = blue
        let l = View(engine: e, frame: Rect(x: 0, y: 0, width: 10, height: 40)); l.backgroundColor = red
        let r = View(engine: e, frame: Rect(x: 90, y: 0, width: 10, height: 40)); r.backgroundColor = green
        source.addSubview(l); source.addSubview(r)
        let insets = caps ? EdgeInsets(top: 0, left: 10, bottom: 0, right: 10) : .zero
        let snap = source.resizableSnapshotView(from: Rect(x: 0, y: 0, width: 100, height: 40), afterScreenUpdates: true, withCapInsets: insets)
        window.addSubview(snap)
        snap.frame = Rect(x: 20, y: 100, width: 100, height: 40)
        if animated {
            e.animate(AnimationParameters(duration: 1, options: 3 << 16), animations: { snap.frame = Rect(x: 20, y: 100, width: 200, height: 40) })
            e.advance(to: 1)
        } else {
            snap.frame = Rect(x: 20, y: 100, width: 200, height: 40)
        }
        let img = Renderer(pointSize: Size(width: 320, height: 200), scale: 2).render(e.sampleTree(window))
        return (img, snap, e)
    }

    /// The colour at point x of the row at y = 120 pt (pixel centres @2x).
    private func colour(_ img: RGBAImage, atPoint x: Double) -> RGBA8 { img.pixel(x: Int(x * 2), y: 240) }
    private func isPure(_ p: RGBA8, _ c: Color) -> Bool {
        abs(Int(p.r) - Int(c.red * 255)) <= 1 && abs(Int(p.g) - Int(c.green * 255)) <= 1 && abs(Int(p.b) - Int(c.blue * 255)) <= 1 && p.a == 255
    }

    func testWithoutCapInsetsTheWholeSnapshotScales() {
        let (img, _, _) = render(caps: false)
        // 2x wider: red covers 20..40 pt, green 200..220, blue between.
        for x in [20.25, 30, 39] { XCTAssertTrue(isPure(colour(img, atPoint: x), red), "x \(x): \(colour(img, atPoint: x))") }
        for x in [41.0, 120, 199] { XCTAssertTrue(isPure(colour(img, atPoint: x), blue), "x \(x): \(colour(img, atPoint: x))") }
        for x in [200.5, 210, 219.5] { XCTAssertTrue(isPure(colour(img, atPoint: x), green), "x \(x): \(colour(img, atPoint: x))") }
        XCTAssertTrue(isPure(colour(img, atPoint: 225), Color(red: 0, green: 0, blue: 0)), "nothing past the new frame")
    }

    func testWithCapInsetsOnlyTheMiddleStretches() {
        let (img, _, _) = render(caps: true)
        // The caps keep 10 pt: red 20..30, green 210..220; blue stretches over 30..210.
        for x in [20.25, 25, 29.5] { XCTAssertTrue(isPure(colour(img, atPoint: x), red), "x \(x): \(colour(img, atPoint: x))") }
        for x in [31.0, 39, 120, 209] { XCTAssertTrue(isPure(colour(img, atPoint: x), blue), "x \(x): \(colour(img, atPoint: x))") }
        for x in [210.5, 215, 219.5] { XCTAssertTrue(isPure(colour(img, atPoint: x), green), "x \(x): \(colour(img, atPoint: x))") }
    }

    func testAnAnimatedResizeStretchesAndTheTraceStateSaysSo() {
        let (img, snap, e) = render(caps: true, animated: true)
        XCTAssertTrue(isPure(colour(img, atPoint: 120), blue))
        XCTAssertTrue(isPure(colour(img, atPoint: 215), green), "the right cap moved with the frame")
        XCTAssertTrue(snap.isStretched(toBounds: e.presentation(of: snap).bounds))
        XCTAssertEqual(snap.resizableSize, Size(width: 100, height: 40))
    }

    func testTheCapMapKeepsCapsAndShrinksThemWhenTheyDoNotFit() {
        XCTAssertEqual(NineSlice.map(5, size: 200, natural: 100, lo: 10, hi: 10), 5)
        XCTAssertEqual(NineSlice.map(195, size: 200, natural: 100, lo: 10, hi: 10), 95)
        XCTAssertEqual(NineSlice.map(100, size: 200, natural: 100, lo: 10, hi: 10), 50)
        // Narrower than the caps: they shrink in proportion (10 pt wide, caps 5 + 5).
        XCTAssertEqual(NineSlice.map(2.5, size: 10, natural: 100, lo: 10, hi: 10), 5)
        XCTAssertEqual(NineSlice.map(7.5, size: 10, natural: 100, lo: 10, hi: 10), 95)
        XCTAssertEqual(NineSlice.map(50, size: 100, natural: 50, lo: 0, hi: 0), 25)
    }
}
