import XCTest
import Foundation
import TransHostCore
@testable import TransHostRender

/// Scenes for the layer tests: a white 320 x 568 screen holding one host view whose layer
/// sample (what the engine would sample) is given by the test, so the pictures are checked
/// against the values directly.
class LayerRenderTestCase: XCTestCase {
    let red = Color(red: 1, green: 0, blue: 0)
    let blue = Color(red: 0, green: 0, blue: 1)
    let screenSize = Size(width: 320, height: 568)

    /// Renders a host view at `frame` (optionally with a background) whose layer has `layers`.
    func render(frame: Rect = Rect(x: 40, y: 60, width: 200, height: 200), background: Color? = nil,
                        clips: Bool = false, layers: LayerTreeSample, scale: Int = 1) -> RGBAImage {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root.backgroundColor = .white
        let host = View(engine: e, frame: frame, name: "host")
        host.backgroundColor = background
        host.clipsToBounds = clips
        root.addSubview(host)
        let nodes = e.sampleTree(root).map { n in
            n.view.id == host.id
                ? PresentationNode(view: n.view, parentID: n.parentID, z: n.z, depth: n.depth, state: n.state, isHidden: n.isHidden, layers: layers)
                : n
        }
        return Renderer(pointSize: screenSize, scale: scale).render(nodes)
    }

    func layer(_ kind: LayerKind = .plain, id: String, _ edit: (inout LayerState) -> Void, sublayers: [SampledLayer] = [],
                       mask: SampledLayer? = nil) -> SampledLayer {
        var s = LayerState(kind: kind)
        edit(&s)
        return SampledLayer(id: id, name: id, kind: kind, state: s, sublayers: sublayers, mask: mask)
    }

    func tree(_ sublayers: [SampledLayer], mask: SampledLayer? = nil, style: LayerStyle = .plain) -> LayerTreeSample {
        LayerTreeSample(style: style, sublayers: sublayers, mask: mask)
    }

    func assertNear(_ p: RGBA8, _ q: RGBA8, _ tol: Int = 1, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
        XCTAssertLessThanOrEqual(d, tol, "\(p) vs expected \(q) \(message)", file: file, line: line)
    }

    /// Red coverage of a pixel over white.
    func cov(_ img: RGBAImage, _ x: Int, _ y: Int) -> Double { 1 - Double(img.pixel(x: x, y: y).g) / 255 }

    func summedCoverage(_ img: RGBAImage) -> Double {
        var s = 0.0
        for y in 0..<img.height { for x in 0..<img.width { s += cov(img, x, y) } }
        return s
    }

    func circleShape(id: String, centre: Point, radius r: Double, fill: Color?) -> SampledLayer {
        layer(.shape, id: id) { s in
            s.shape!.path = Path.ellipse(in: Rect(x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r))
            s.shape!.fillColor = fill
        }
    }
}
