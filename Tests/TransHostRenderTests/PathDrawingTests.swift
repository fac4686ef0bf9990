import XCTest
import CCairo
import Foundation
import TransHostCore
@testable import TransHostRender

/// Paths drawn by cairo as CAShapeLayer draws them, checked against areas and lengths computed
/// here: a shape's summed alpha (in pixels) is its area, since antialiasing spreads each edge
/// pixel's coverage without changing the total.
final class PathDrawingTests: XCTestCase {
    private let black = Color(red: 0, green: 0, blue: 0)

    /// Draws `shape` at `scale` pixels per point into a transparent 200 x 200 point image and
    /// returns the image and its summed alpha in square points.
    private func draw(_ shape: ShapeStyle, scale: Int = 1) -> (RGBAImage, Double) {
        let img = RGBAImage(width: 200 * scale, height: 200 * scale)
        img.withCairo { cr in
            cairo_scale(cr, Double(scale), Double(scale))
            PathDrawing.draw(cr, shape)
        }
        var sum = 0.0
        for y in 0..<img.height { for x in 0..<img.width { sum += Double(img.premultipliedPixel(x: x, y: y) >> 24) / 255 } }
        return (img, sum / Double(scale * scale))
    }

    private func alpha(_ img: RGBAImage, _ x: Int, _ y: Int) -> Double { Double(img.premultipliedPixel(x: x, y: y) >> 24) / 255 }

    private func line(_ pts: [(Double, Double)], closed: Bool = false) -> Path {
        var p = Path()
        p.move(to: Point(x: pts[0].0, y: pts[0].1))
        for q in pts.dropFirst() { p.addLine(to: Point(x: q.0, y: q.1)) }
        if closed { p.closeSubpath() }
        return p
    }

    func testCircleFillCoversItsArea() {
        for scale in [1, 2, 3] {
            let (img, area) = draw(ShapeStyle(path: Path.ellipse(in: Rect(x: 20, y: 30, width: 120, height: 120)), fillColor: black), scale: scale)
            XCTAssertEqual(area, Double.pi * 60 * 60, accuracy: Double.pi * 3600 * 0.002, "@\(scale)x")
            XCTAssertEqual(alpha(img, 80 * scale, 90 * scale), 1, "centre")
            XCTAssertEqual(alpha(img, 21 * scale, 31 * scale), 0, "corner of the box, outside the circle")
        }
    }

    /// Two concentric circles drawn the same way round: non-zero fills the inner one too (the
    /// winding number there is 2), even-odd leaves a ring (area pi (R^2 - r^2)).
    func testFillRulesNonZeroAndEvenOdd() {
        var p = Path.ellipse(in: Rect(x: 20, y: 20, width: 160, height: 160))
        p.elements += Path.ellipse(in: Rect(x: 60, y: 60, width: 80, height: 80)).elements
        let (nz, nzArea) = draw(ShapeStyle(path: p, fillColor: black, fillRule: .nonZero))
        let (eo, eoArea) = draw(ShapeStyle(path: p, fillColor: black, fillRule: .evenOdd))
        XCTAssertEqual(alpha(nz, 100, 100), 1)
        XCTAssertEqual(alpha(eo, 100, 100), 0, "the hole")
        XCTAssertEqual(alpha(eo, 100, 30), 1, "the ring")
        XCTAssertEqual(nzArea, Double.pi * 80 * 80, accuracy: 30)
        XCTAssertEqual(eoArea, Double.pi * (80 * 80 - 40 * 40), accuracy: 30)
    }

    /// A straight stroke of width w and length L covers L w with butt caps, (L + w) w with
    /// square caps and L w + pi (w/2)^2 with round caps.
    func testStrokeCaps() {
        let w = 10.0, len = 100.0
        let path = line([(50, 100), (150, 100)])
        let expected: [(LineCap, Double)] = [(.butt, len * w), (.square, (len + w) * w), (.round, len * w + Double.pi * 25)]
        for (cap, area) in expected {
            let (_, got) = draw(ShapeStyle(path: path, fillColor: nil, strokeColor: black, lineWidth: w, lineCap: cap), scale: 2)
            XCTAssertEqual(got, area, accuracy: area * 0.003, "\(cap) cap")
        }
    }

    /// An L of two 50-point legs, width 10, butt caps: the legs' union is 975 square points; the
    /// outer corner adds a 5 x 5 square (miter), half of it (bevel) or a quarter disc (round).
    func testStrokeJoins() {
        let path = line([(10, 50), (60, 50), (60, 100)])
        let expected: [(LineJoin, Double)] = [(.miter, 1000), (.bevel, 987.5), (.round, 975 + Double.pi * 25 / 4)]
        for (join, area) in expected {
            let (_, got) = draw(ShapeStyle(path: path, fillColor: nil, strokeColor: black, lineWidth: 10, lineJoin: join), scale: 3)
            XCTAssertEqual(got, area, accuracy: 1.5, "\(join) join")
        }
        // A miter limit below the corner's ratio (sqrt 2 for a right angle) bevels it.
        let (_, limited) = draw(ShapeStyle(path: path, fillColor: nil, strokeColor: black, lineWidth: 10, lineJoin: .miter, miterLimit: 1.2), scale: 3)
        XCTAssertEqual(limited, 987.5, accuracy: 1.5, "miter beyond the limit")
    }

    /// strokeStart and strokeEnd are fractions of the whole length: 0.25...0.75 of a 100-point
    /// line is the 50 points from x = 75 to x = 125.
    func testStrokeStartAndEndTrimByLength() {
        let path = line([(50, 100), (150, 100)])
        let (img, area) = draw(ShapeStyle(path: path, fillColor: nil, strokeColor: black, lineWidth: 10, strokeStart: 0.25, strokeEnd: 0.75))
        XCTAssertEqual(area, 500, accuracy: 1)
        XCTAssertEqual(alpha(img, 74, 100), 0)
        XCTAssertEqual(alpha(img, 75, 100), 1)
        XCTAssertEqual(alpha(img, 124, 100), 1)
        XCTAssertEqual(alpha(img, 125, 100), 0)
        let (_, none) = draw(ShapeStyle(path: path, fillColor: nil, strokeColor: black, lineWidth: 10, strokeStart: 0.6, strokeEnd: 0.4))
        XCTAssertEqual(none, 0, "start after end draws nothing")
    }

    /// lineDashPattern [10, 5] on a 150-point line draws ten 10-point dashes: two thirds of it.
    func testDashPatternDrawsItsShareOfTheLine() {
        let path = line([(25, 100), (175, 100)])
        var shape = ShapeStyle(path: path, fillColor: nil, strokeColor: black, lineWidth: 4)
        shape.lineDashPattern = [10, 5]
        let (img, area) = draw(shape)
        XCTAssertEqual(area, 150 * 4 * 2 / 3, accuracy: 2)
        XCTAssertEqual(alpha(img, 30, 100), 1, "in the first dash")
        XCTAssertEqual(alpha(img, 37, 100), 0, "in the first gap")
    }

    /// A circle's stroke trimmed to strokeEnd = 0.5: half the ring, 2 pi r w / 2, starting at the
    /// circle's right-most point and running clockwise on screen (through the bottom).
    func testTrimmedCircleStrokeIsHalfTheRing() {
        let circle = Path.ellipse(in: Rect(x: 40, y: 40, width: 120, height: 120))
        let shape = ShapeStyle(path: circle, fillColor: nil, strokeColor: black, lineWidth: 8, strokeEnd: 0.5)
        let (img, area) = draw(shape, scale: 2)
        XCTAssertEqual(area, Double.pi * 60 * 8, accuracy: Double.pi * 480 * 0.005)
        XCTAssertEqual(alpha(img, 200, 318), 1, "bottom of the ring is drawn")
        XCTAssertEqual(alpha(img, 200, 82), 0, "top of the ring is not")
    }

    /// Trimming measures every subpath in turn: strokeEnd 0.5 over two equal lines draws all of
    /// the first and none of the second.
    func testTrimSpansSubpaths() {
        var p = line([(20, 50), (120, 50)])
        p.elements += line([(20, 150), (120, 150)]).elements
        let (img, area) = draw(ShapeStyle(path: p, fillColor: nil, strokeColor: black, lineWidth: 4, strokeEnd: 0.5))
        XCTAssertEqual(area, 400, accuracy: 1)
        XCTAssertEqual(alpha(img, 70, 50), 1)
        XCTAssertEqual(alpha(img, 70, 150), 0)
    }

    func testFillThenStrokeAndQuadCurves() {
        // A quadratic arch from (20, 150) over control (100, 50) to (180, 150), closed by the
        // base: the area between a parabola and its chord is 2/3 of base x height, with
        // height half the control's rise (50), 2/3 * 160 * 50.
        var p = Path()
        p.move(to: Point(x: 20, y: 150))
        p.addQuadCurve(to: Point(x: 180, y: 150), control: Point(x: 100, y: 50))
        p.closeSubpath()
        let (_, area) = draw(ShapeStyle(path: p, fillColor: black), scale: 2)
        XCTAssertEqual(area, 2.0 / 3 * 160 * 50, accuracy: 10)
        // A red fill under a blue stroke: the stroke is on top.
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let (img, _) = draw(ShapeStyle(path: Path.rect(Rect(x: 50, y: 50, width: 100, height: 100)), fillColor: red, strokeColor: blue, lineWidth: 10))
        XCTAssertEqual(img.pixel(x: 50, y: 100), RGBA8(r: 0, g: 0, b: 255, a: 255), "the stroke on the edge")
        XCTAssertEqual(img.pixel(x: 100, y: 100), RGBA8(r: 255, g: 0, b: 0, a: 255), "the fill inside")
        XCTAssertEqual(img.pixel(x: 46, y: 100), RGBA8(r: 0, g: 0, b: 255, a: 255), "the stroke's outer half")
    }
}
