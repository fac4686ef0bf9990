import XCTest
import Foundation
import TransHostCore
@testable import TransHostRender

/// clipsToBounds with a corner radius clips subviews to the rounded rectangle. Each test puts a
/// red child, larger than its clipping parent, on white: a pixel's red coverage is then
/// 1 - green / 255, compared with the area of the pixel inside the rounded shape computed here
/// independently (exact integration for the axis-aligned case, dense supersampling otherwise).
final class RoundedClipTests: XCTestCase {
    private let red = Color(red: 1, green: 0, blue: 0)

    /// A white 320 x 568 screen with a parent at `frame` (no background, corner radius `r`,
    /// clipsToBounds) holding a red child that overhangs it by 20 points on every side.
    private func scene(_ e: AnimationEngine, frame: Rect, radius r: Double) -> (root: View, parent: View) {
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root.backgroundColor = .white
        let parent = View(engine: e, frame: frame)
        parent.cornerRadius = r
        parent.clipsToBounds = true
        let child = View(engine: e, frame: Rect(x: -20, y: -20, width: frame.width + 40, height: frame.height + 40))
        child.backgroundColor = red
        parent.addSubview(child)
        root.addSubview(parent)
        return (root, parent)
    }

    private func coverage(_ img: RGBAImage, _ x: Int, _ y: Int) -> Double { 1 - Double(img.pixel(x: x, y: y).g) / 255 }

    /// Area of the unit pixel [x, x+1) x [y, y+1) inside the disk (cx, cy, r), by the midpoint
    /// rule over x of the chord length clamped to the pixel's rows.
    private func diskArea(_ x: Int, _ y: Int, cx: Double, cy: Double, r: Double) -> Double {
        let steps = 2000
        var area = 0.0
        for k in 0..<steps {
            let px = Double(x) + (Double(k) + 0.5) / Double(steps)
            let dx = px - cx
            guard abs(dx) < r else { continue }
            let half = (r * r - dx * dx).squareRoot()
            let lo = max(Double(y), cy - half), hi = min(Double(y + 1), cy + half)
            if hi > lo { area += (hi - lo) / Double(steps) }
        }
        return area
    }

    func testQuarterCircleEdgePixelsCoverTheirExactArea() {
        for scale in [1, 2, 3] {
            let e = AnimationEngine()
            let (root, _) = scene(e, frame: Rect(x: 40, y: 60, width: 200, height: 120), radius: 30)
            let img = Renderer(pointSize: Size(width: 320, height: 568), scale: scale).render(e.sampleTree(root))
            let sc = Double(scale)
            // The top-left corner's circle, in pixels; the corner square is [x0, cx) x [y0, cy).
            let r = 30 * sc, cx = (40 + 30) * sc, cy = (60 + 30) * sc
            let x0 = Int(40 * sc), y0 = Int(60 * sc)
            var worst = 0.0, total = 0.0, edgePixels = 0
            for y in y0..<Int(cy) {
                for x in x0..<Int(cx) {
                    let exact = diskArea(x, y, cx: cx, cy: cy, r: r)
                    let got = coverage(img, x, y)
                    if exact > 0 && exact < 1 {
                        edgePixels += 1
                        worst = max(worst, abs(got - exact))
                        total += abs(got - exact)
                    } else {
                        XCTAssertEqual(got, exact, accuracy: 1.0 / 255, "@\(scale)x pixel (\(x), \(y)) is wholly \(exact == 1 ? "inside" : "outside")")
                    }
                }
            }
            XCTAssertGreaterThan(edgePixels, Int(r), "the arc crosses pixels")
            // The mask rasterizer samples 15 rows per pixel: a pixel's coverage is within a
            // sample row's share of its exact area; on average much closer.
            XCTAssertLessThanOrEqual(worst, 1.0 / 15 + 1.0 / 255, "@\(scale)x worst edge pixel")
            XCTAssertLessThanOrEqual(total / Double(edgePixels), 0.015, "@\(scale)x mean error over \(edgePixels) edge pixels")
            // The straight edges stay crisp at whole pixels, as without a radius.
            XCTAssertEqual(coverage(img, Int(140 * sc), y0), 1, accuracy: 1.0 / 255, "top edge, middle")
            XCTAssertEqual(coverage(img, Int(140 * sc), y0 - 1), 0, accuracy: 1.0 / 255, "above the top edge")
        }
    }

    /// A rotated parent is drawn as one group raster and resampled, which softens every edge by
    /// the bilinear footprint (as for any rotated layer), so single pixels are not compared with
    /// exact coverage. Resampling keeps area: the summed coverage equals the rounded
    /// rectangle's area, w h - (4 - pi) r^2; and the picture matches a red view with the same
    /// corner radius and rotation (the renderer's own rounded background) pixel for pixel.
    func testRotatedRoundedClipKeepsTheShapesAreaAndMatchesARoundedView() {
        let angle = 0.5
        let e = AnimationEngine()
        let (root, parent) = scene(e, frame: Rect(x: 60, y: 100, width: 160, height: 100), radius: 24)
        parent.transform3D = Transform3D.rotation(angle, 0, 0, 1)
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 2).render(e.sampleTree(root))

        let e2 = AnimationEngine()
        let root2 = View(engine: e2, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root2.backgroundColor = .white
        let plain = View(engine: e2, frame: Rect(x: 60, y: 100, width: 160, height: 100))
        plain.backgroundColor = red
        plain.cornerRadius = 24
        plain.transform3D = Transform3D.rotation(angle, 0, 0, 1)
        root2.addSubview(plain)
        let reference = Renderer(pointSize: Size(width: 320, height: 568), scale: 2).render(e2.sampleTree(root2))

        var sum = 0.0, worst = 0.0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let c = coverage(img, x, y)
                sum += c
                worst = max(worst, abs(c - coverage(reference, x, y)))
            }
        }
        let area = (160 * 100 - (4 - Double.pi) * 24 * 24) * 4
        XCTAssertEqual(sum, area, accuracy: area * 0.002, "summed coverage in pixels against the exact area")
        XCTAssertLessThanOrEqual(worst, 0.07, "largest difference from the rounded view")
        // 1.5 points in from the top-left corner of the bounds on both axes: inside the
        // rectangle, outside the arc (which passes r (1 - 1/sqrt 2) = 7 points in on the diagonal).
        let c = cos(angle), s = sin(angle)
        let (cx, cy) = (-80.0 + 1.5, -50.0 + 1.5)
        let px = (c * cx - s * cy + 140) * 2, py = (s * cx + c * cy + 150) * 2
        XCTAssertEqual(coverage(img, Int(px), Int(py)), 0, accuracy: 1.0 / 255, "the cut-off corner stays white")
    }

    /// A parent drawn as one group raster (alpha < 1) clips the same way: the corner pixel
    /// outside the arc stays white, the centre shows half red.
    func testGroupRasterAppliesTheRoundedClip() {
        let e = AnimationEngine()
        let (root, parent) = scene(e, frame: Rect(x: 40, y: 60, width: 200, height: 120), radius: 30)
        parent.alpha = 0.5
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        XCTAssertEqual(coverage(img, 41, 61), 0, accuracy: 1.0 / 255, "inside the bounds, outside the arc")
        XCTAssertEqual(coverage(img, 140, 120), 0.5, accuracy: 2.0 / 255, "centre at half alpha")
        XCTAssertEqual(coverage(img, 40, 120), 0.5, accuracy: 2.0 / 255, "left edge, middle")
    }

    /// Without clipsToBounds the radius rounds only the view's own background: the child
    /// reaches into the corner.
    func testRadiusWithoutClipsToBoundsLeavesChildrenUnclipped() {
        let e = AnimationEngine()
        let (root, parent) = scene(e, frame: Rect(x: 40, y: 60, width: 200, height: 120), radius: 30)
        parent.clipsToBounds = false
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        XCTAssertEqual(coverage(img, 41, 61), 1, accuracy: 1.0 / 255)
        XCTAssertEqual(coverage(img, 25, 45), 1, accuracy: 1.0 / 255, "the overhang shows")
    }
}
