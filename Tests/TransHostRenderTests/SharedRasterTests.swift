import XCTest
import CCairo
import CRenderKernels
import TransHostCore
import TransHostRenderScenes
@testable import TransHostRender

/// Work the renderer shares instead of doing again: snapshots whose pixels are their view's
/// (and crops of them), and the projective loop's divisions worked out once per column or row.
/// Each must show the same pixels as doing it afresh.
final class SharedRasterTests: XCTestCase {
    private func screen(_ e: AnimationEngine) -> View {
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        root.backgroundColor = .black
        return root
    }

    /// split-modal's cut: the page's snapshot cut into a left and a right half, side by side
    /// where the page was, shows the page's own pixels, and the halves share the snapshot's
    /// raster instead of copying it (a wrong crop offset would show the wrong half).
    func testHalvesOfASnapshotShowThePageUnchanged() {
        for scale in [1, 2, 3] {
            let e = AnimationEngine()
            let whole = screen(e)
            let page = DemoScenes.page(e, title: "Halves", hue: Color(red: 0.85, green: 0.9, blue: 1))
            whole.addSubview(page)
            let expected = Renderer(pointSize: DemoScenes.screen, scale: scale).render(e.sampleTree(whole))

            let cut = screen(e)
            let left = page.snapshotView(afterScreenUpdates: true)
                .resizableSnapshotView(from: Rect(x: 0, y: 0, width: 160, height: 568), afterScreenUpdates: true, withCapInsets: .zero)
            let right = page.snapshotView(afterScreenUpdates: true)
                .resizableSnapshotView(from: Rect(x: 160, y: 0, width: 160, height: 568), afterScreenUpdates: true, withCapInsets: .zero)
            right.center = Point(x: 240, y: 284)
            cut.addSubview(left)
            cut.addSubview(right)
            let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
            let halves = r.render(e.sampleTree(cut))
            // Two windows, and the right half's snapshot is the left one's raster (same subtree).
            XCTAssertEqual(r.stats.sharedGroupRasters, 3, "each half is a window onto one snapshot raster @\(scale)x")
            XCTAssertEqual(halves.rgbaBytes(), expected.rgbaBytes(), "the halves show the page's pixels @\(scale)x")
        }
    }

    /// Snapshots taken before and after a change differ in one value only; each shows its own.
    func testSnapshotsOfAChangedViewAreNotShared() {
        let e = AnimationEngine()
        let page = DemoScenes.page(e, title: "Before", hue: Color(red: 0.85, green: 0.9, blue: 1))
        let left = page.resizableSnapshotView(from: Rect(x: 0, y: 0, width: 160, height: 568), afterScreenUpdates: true, withCapInsets: .zero)
        page.subviews[0].backgroundColor = Color(red: 1, green: 0.5, blue: 0)
        let right = page.resizableSnapshotView(from: Rect(x: 160, y: 0, width: 160, height: 568), afterScreenUpdates: true, withCapInsets: .zero)
        right.center = Point(x: 240, y: 284)
        func shown(_ views: [View]) -> RGBAImage {
            let root = screen(e)
            for v in views { root.addSubview(v) }
            return Renderer(pointSize: DemoScenes.screen, scale: 2).render(e.sampleTree(root))
        }
        let expectedAfter = shown([page.snapshotView(afterScreenUpdates: true)])
        let both = shown([left, right])
        XCTAssertEqual(both.pixel(x: 400, y: 60), expectedAfter.pixel(x: 400, y: 60), "the right half shows the changed bar")
        XCTAssertNotEqual(both.pixel(x: 100, y: 60), expectedAfter.pixel(x: 100, y: 60), "the left half shows the bar before")
    }

    /// A view's only subview that covers it still draws into its own raster when the parent
    /// draws something of its own (here a border over the subview).
    func testAParentThatDrawsItselfIsNotShared() {
        let e = AnimationEngine()
        let root = screen(e)
        let page = DemoScenes.page(e, title: "Bordered", hue: Color(red: 1, green: 0.92, blue: 0.85))
        let snap = page.snapshotView(afterScreenUpdates: true)
        snap.content = ViewContent(borderWidth: 4, borderColor: Color(red: 1, green: 0, blue: 0))
        snap.alpha = 0.999 // drawn as a group
        root.addSubview(snap)
        let r = Renderer(pointSize: DemoScenes.screen, scale: 2)
        let img = r.render(e.sampleTree(root))
        let edge = img.pixel(x: 1, y: 300), inside = img.pixel(x: 40, y: 300)
        XCTAssertGreaterThan(Int(edge.r), 200, "the border shows")
        XCTAssertLessThan(Int(edge.g), 60)
        XCTAssertGreaterThan(Int(inside.g), 200, "the page shows inside it")
    }

    /// Opaque backgrounds on whole pixels are filled with cairo's colour instead of drawn and
    /// copied: the same pixels as the raster path, which a corner radius of 1e-9 points (too
    /// small to change any pixel) forces, at every scale, clipped by a parent and half off screen.
    func testOpaqueBackgroundsFillLikeTheirRasters() {
        func scene(_ radius: Double) -> (AnimationEngine, View) {
            let e = AnimationEngine()
            let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
            root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
            root.cornerRadius = radius
            let clip = View(engine: e, frame: Rect(x: 20, y: 40, width: 200, height: 300), name: "clip")
            clip.clipsToBounds = true
            clip.backgroundColor = Color(red: 0.9, green: 0.85, blue: 0.1)
            clip.cornerRadius = radius
            let row = View(engine: e, frame: Rect(x: 150, y: 100, width: 120, height: 44), name: "row")
            row.backgroundColor = Color(red: 1, green: 1, blue: 1)
            row.cornerRadius = radius
            clip.addSubview(row)
            root.addSubview(clip)
            let off = View(engine: e, frame: Rect(x: 250, y: 500, width: 200, height: 200), name: "off screen")
            off.backgroundColor = Color(red: 0.1, green: 0.6, blue: 0.3)
            off.cornerRadius = radius
            root.addSubview(off)
            return (e, root)
        }
        for scale in [1, 2, 3] {
            let (e1, filled) = scene(0), (e2, drawn) = scene(1e-9)
            let a = Renderer(pointSize: DemoScenes.screen, scale: scale), b = Renderer(pointSize: DemoScenes.screen, scale: scale)
            let ia = a.render(e1.sampleTree(filled)), ib = b.render(e2.sampleTree(drawn))
            XCTAssertEqual(a.stats.contentRasterizations, 0, "no background is drawn into a raster @\(scale)x")
            XCTAssertGreaterThan(b.stats.contentRasterizations, 0)
            XCTAssertEqual(ia.rgbaBytes(), ib.rgbaBytes(), "filled and drawn backgrounds match @\(scale)x")
        }
    }

    /// The projective loop's once-per-column (turn about Y) and once-per-row (turn about X)
    /// divisions give the bytes of dividing at every position: the same maps with the zero
    /// entries replaced by 1e-300 (which changes no W, U or V) take the general path.
    func testColumnAndRowDivisionsMatchDividingEverywhere() {
        let sw = 120, sh = 90
        let src = RGBAImage(width: sw, height: sh)
        src.withCairo { cr in
            cairo_set_source_rgba(cr, 0.2, 0.5, 0.9, 1); cairo_paint(cr)
            cairo_set_source_rgba(cr, 0.9, 0.3, 0.1, 0.8)
            cairo_arc(cr, 60, 45, 30, 0, 6.283); cairo_fill(cr)
            cairo_rectangle(cr, 10, 10, 20, 70); cairo_fill(cr)
        }
        // Destination -> source maps: a turn about the vertical axis (m[1] = m[7] = 0), about
        // the horizontal axis (m[3] = m[6] = 0), in th_composite_projective_bilinear's order.
        let aboutY: [Double] = [0.9, 0, 4, 0.05, 1.1, -8, 0.0021, 0, 0.93]
        let aboutX: [Double] = [1.05, 0.04, -6, 0, 0.95, 3, 0, 0.0018, 0.9]
        for (name, exact, zeros) in [("about Y", aboutY, [1, 7]), ("about X", aboutX, [3, 6])] {
            var general = exact
            for i in zeros { general[i] = 1e-300 }
            for alpha: UInt32 in [256, 180] {
                let a = RGBAImage(width: 200, height: 160), b = RGBAImage(width: 200, height: 160)
                for (img, m) in [(a, exact), (b, general)] {
                    img.fill(Color(red: 0, green: 0.4, blue: 0, alpha: 1))
                    var mm = m
                    th_composite_projective_bilinear(src.data.assumingMemoryBound(to: UInt32.self), src.stride, Int32(sw), Int32(sh),
                                                     img.data.assumingMemoryBound(to: UInt32.self), img.stride, 0, 0, 200, 160,
                                                     &mm, nil, 0, alpha)
                }
                XCTAssertEqual(a.rgbaBytes(), b.rgbaBytes(), "turn \(name), alpha \(alpha)")
                XCTAssertNotEqual(a.rgbaBytes(), RGBAImage(width: 200, height: 160).rgbaBytes(), "something was drawn")
            }
        }
    }
}
