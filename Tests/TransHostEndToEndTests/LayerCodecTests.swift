import XCTest
@testable import TransHostIsolation
import TransHostCore
import TransHostCoordinators
import TransHostScenario

/// A worker's frames keep every layer field the renderer and the trace read: encoded and
/// decoded, a frame with sublayers, a mask, a morphing path, a gradient and a shadow is equal
/// to the one sampled.
final class LayerCodecTests: XCTestCase {
    func testFramesWithLayersRoundTrip() throws {
        let engine = AnimationEngine()
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 200), name: "root")
        let shape = Layer(engine: engine, kind: .shape, name: "ring")
        shape.setModelValue(.path(.ellipse(in: Rect(x: 10, y: 10, width: 30, height: 30))), for: .path)
        shape.setModelValue(.color(Color(red: 1, green: 0, blue: 0)), for: .strokeColor)
        shape.lineDashPattern = [2, 3]
        let gradient = Layer(engine: engine, kind: .gradient)
        gradient.setModelValue(.colors([.black, .white]), for: .colors)
        gradient.setModelValue(.numbers([0.1, 0.8]), for: .locations)
        shape.addSublayer(gradient)
        root.addSublayer(shape)
        let mask = Layer(engine: engine, kind: .shape)
        mask.setModelValue(.path(.rect(Rect(x: 0, y: 0, width: 50, height: 50))), for: .path)
        root.mask = mask
        root.layerStyle.shadow = Shadow(color: .black, opacity: 0.5, offset: Size(width: 0, height: 4), radius: 6,
                                        path: .rect(Rect(x: 0, y: 0, width: 100, height: 200)))
        var t = Transform3D.identity
        t.m34 = -1 / 500
        root.layerStyle.sublayerTransform = t
        engine.advance(to: 0.1)   // mid-way through the implicit animations
        let frame = TraceFrame(t: 0.1, nodes: engine.sampleTree(root))
        XCTAssertNotNil(frame.nodes[0].layers)

        let record = TransitionRecord(index: 0, container: .navigation, operation: .push, fromType: "A", toType: "B", fromID: "c1",
                                      toID: "c2", animator: nil, interactive: false, duration: 0.1, start: 0, end: 0.1,
                                      outcome: .completed, breaches: [], appearance: [], restored: [])
        let run = RunResult(scenario: .builtInDefault, fps: 60, transitions: [TransitionTrace(index: 0, record: record, frames: [frame], after: frame)],
                            finalStack: ["A", "B"], finalSelected: nil, finalPresented: [], events: [])
        let bytes = PlayResultCodec.encode(run, validations: [])
        let back = try PlayResultCodec.decode(bytes, scenario: .builtInDefault, fps: 60)
        XCTAssertEqual(back.run.transitions[0].frames[0].nodes, frame.nodes)
        XCTAssertEqual(back.run.transitions[0].after.nodes[0].layers, frame.nodes[0].layers)
    }
}
