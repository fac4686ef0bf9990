import Foundation
import TransHostCore
import TransHostCoordinators
@testable import TransHostScenario
import TransHostSupport
import XCTest

/// The trace's frame rule (docs/trace.md) with the host's default push/pop (0.35 s): frames run
/// from t = 0 to the transition's last instant, the last frame shows the animations at their end
/// before completions run, and every transition carries `after`, the window once it ended.
final class TraceFrameRuleTests: XCTestCase {
    private func play(_ script: String) throws -> RunResult {
        let scenario = try Products.scenario("""
        {"format": "transhost-scenario/1", "name": "frames", "device": "iphone-5",
         "types": {"A": "UIViewController", "B": "UIViewController"},
         "controllers": {"a": {"type": "A", "view": {"background": "#2f6fdf"}},
                         "b": {"type": "B", "view": {"background": "#e0533c"}}},
         "root": {"container": "navigation", "stack": ["a", "b"]},
         "script": \(script)}
        """, test: self)
        return ScenarioRunner(app: App(scenario: scenario), provider: nil).run()
    }

    private func node(_ f: TraceFrame, _ name: String) -> PresentationNode? { f.nodes.first { $0.view.name == name } }

    func testAZeroLengthInteractiveTransitionHasItsFrameAtZero() throws {
        // Released at once, at progress 0: cancelled at the instant it began.
        let r = try play(#"[{"action": "pop", "gesture": {"samples": [], "release": [0, 0]}}]"#)
        let t = try XCTUnwrap(r.transitions.first)
        XCTAssertEqual(t.record.outcome, .cancelled)
        XCTAssertTrue(t.record.interactive)
        XCTAssertEqual(t.frames.map(\.t), [0], "t = 0 is also its end")
        XCTAssertEqual(t.after.t, 0)
        XCTAssertNotNil(node(t.frames[0], "B"), "the cancelled pop leaves B on screen")
        XCTAssertNil(node(t.after, "A"), "and A out of the window")
    }

    func testAnInteractiveTransitionsLastFrameIsTakenBeforeCompletionLikeAnyOther() throws {
        let r = try play("""
        [{"action": "pop", "gesture": {"samples": [[0.1, 60], [0.2, 200]], "release": [0.25, 220]}},
         {"action": "push", "controller": "b"}]
        """)
        XCTAssertEqual(r.transitions.count, 2)
        for t in r.transitions {
            let last = try XCTUnwrap(t.frames.last)
            XCTAssertEqual(t.frames.first?.t, 0)
            XCTAssertEqual(last.t, t.record.interactive ? t.record.end - t.record.start : t.record.duration, accuracy: 1e-9)
            XCTAssertEqual(Set(t.frames.map(\.t)).count, t.frames.count, "no frame twice")
            // Before completion both controllers' views are in the window; after it, only the new top.
            XCTAssertNotNil(node(last, "A"), "transition \(t.index) at its last frame")
            XCTAssertNotNil(node(last, "B"), "transition \(t.index) at its last frame")
            let gone = t.record.operation == .pop ? "B" : "A"
            XCTAssertNil(node(t.after, gone), "transition \(t.index): \(gone) has left the window after completion")
            XCTAssertEqual(t.after.t, t.record.end - t.record.start, accuracy: 1e-12)
        }
        // The pop finished: its last frame shows A where it ends (at the origin), not yet B removed.
        let pop = r.transitions[0]
        XCTAssertEqual(try XCTUnwrap(node(pop.frames.last!, "A")).state.frame.minX, 0, accuracy: 1e-9)
    }

    /// The trace file is written frame by frame, without the frames' tree: its bytes are the tree's.
    func testTheWrittenTraceHasTheBytesOfItsTree() throws {
        let r = try play("""
        [{"action": "pop", "gesture": {"samples": [[0.1, 60]], "release": [0.15, 70]}},
         {"action": "pop"}, {"action": "push", "controller": "b", "animated": false}]
        """)
        for settings in [TraceWriter.Settings(scale: 2), .init(scale: 3, parameters: ["p": ["x": "1.5"]])] {
            XCTAssertEqual(String(decoding: TraceWriter.encode(r, settings: settings), as: UTF8.self),
                           JSONWriter.write(TraceWriter.json(r, settings: settings)))
        }
    }

    func testTheTraceWritesAfterForEveryTransition() throws {
        let r = try play(#"[{"action": "pop"}, {"action": "push", "controller": "b", "animated": false}]"#)
        let json = TraceWriter.json(r, settings: .init(scale: 2))
        let transitions = try XCTUnwrap(json["transitions"]?.arrayValue)
        XCTAssertEqual(transitions.count, 2)
        for t in transitions {
            let after = try XCTUnwrap(t["after"], "every transition has after")
            XCTAssertNotNil(after["t"]?.doubleValue)
            XCTAssertFalse(after["views"]?.arrayValue?.isEmpty ?? true)
        }
    }

    /// A resizable snapshot shown at another size carries `stretch` (the size it was taken at and
    /// its cap insets); at its own size it does not.
    func testAStretchedResizableSnapshotSaysSoInTheTrace() throws {
        let e = AnimationEngine()
        let source = View(engine: e, frame: Rect(x: 0, y: 0, width: 100, height: 40), name: "bar")
        let snap = source.resizableSnapshotView(from: Rect(x: 0, y: 0, width: 100, height: 40), afterScreenUpdates: true,
                                                withCapInsets: EdgeInsets(top: 1, left: 10, bottom: 2, right: 12))
        XCTAssertNil(TraceWriter.node(try XCTUnwrap(e.sampleTree(snap).first))["stretch"])
        snap.frame = Rect(x: 0, y: 0, width: 250, height: 40)
        let stretch = try XCTUnwrap(TraceWriter.node(try XCTUnwrap(e.sampleTree(snap).first))["stretch"])
        XCTAssertEqual(stretch["size"], .array([.number(100), .number(40)]))
        XCTAssertEqual(stretch["capInsets"], .array([.number(1), .number(10), .number(2), .number(12)]))
    }

    /// Views of every kind a trace holds (a stretched snapshot, one with sublayers, names that
    /// need escaping, a transform with every entry set) are written member by member with the
    /// bytes their tree has, pretty and compact.
    func testEveryKindOfViewIsWrittenWithTheBytesOfItsTree() throws {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "root é")
        // One character that needs escaping in each name.
        let odd = ["quote \"", "backslash \\", "tab \t", "newline \n", "control \u{01}"]
        for name in odd { root.addSubview(View(engine: e, frame: Rect(x: 1, y: 2, width: 3, height: 4), name: name)) }
        let source = View(engine: e, frame: Rect(x: 0, y: 0, width: 100, height: 40), name: "bar")
        let snap = source.resizableSnapshotView(from: Rect(x: 0, y: 0, width: 100, height: 40), afterScreenUpdates: true,
                                                withCapInsets: EdgeInsets(top: 1, left: 10, bottom: 2, right: 12))
        snap.frame = Rect(x: 3.25, y: -7.5, width: 250, height: 40)
        root.addSubview(snap)
        let card = View(engine: e, frame: Rect(x: 10.125, y: 20, width: 50, height: 60), name: "card")
        let layer = Layer(engine: e, kind: .shape, name: "ring")
        layer.setModelValue(.path(.ellipse(in: Rect(x: 1, y: 2, width: 30, height: 30))), for: .path)
        card.addSublayer(layer)
        var t = Transform3D.identity
        t.m11 = 0.5; t.m12 = -0.25; t.m13 = 1e-7; t.m14 = 0.001; t.m21 = 2; t.m34 = -1 / 500; t.m41 = 12.5; t.m42 = -3; t.m43 = 4; t.m44 = 1.5
        card.transform3D = t
        card.alpha = 0.375
        card.isHidden = true
        root.addSubview(card)
        let frame = TraceFrame(t: 0.125, nodes: e.sampleTree(root))
        XCTAssertTrue(frame.nodes.contains { $0.layers != nil } && frame.nodes.contains { $0.view.isSnapshot }, "the tree has the kinds this test is about")
        let record = TransitionRecord(index: 0, container: .navigation, operation: .push, fromType: "A", toType: "B", fromID: "c1",
                                      toID: "c2", animator: nil, interactive: false, duration: 0.125, start: 0, end: 0.125,
                                      outcome: .completed, breaches: [], appearance: [], restored: [])
        let r = RunResult(scenario: .builtInDefault, fps: 60, transitions: [TransitionTrace(index: 0, record: record, frames: [frame], after: frame)],
                          finalStack: ["A", "B"], finalSelected: nil, finalPresented: [], events: [])
        let written = String(decoding: TraceWriter.encode(r, settings: .init(scale: 2)), as: UTF8.self)
        XCTAssertEqual(written, JSONWriter.write(TraceWriter.json(r, settings: .init(scale: 2))))
        XCTAssertTrue(written.contains("\"stretch\"") && written.contains("\"layer\"") && written.contains("\"snapshot\": true"), written)
        for escaped in [#""quote \"""#, #""backslash \\""#, #""tab \t""#, #""newline \n""#, #""control \u0001""#, #""root é""#] {
            XCTAssertTrue(written.contains(escaped), "\(escaped) is in the trace, escaped")
        }
        var compact = JSONWriter.Output()
        TraceWriter.encode(frame, into: &compact, indent: nil)
        XCTAssertEqual(compact.string, JSONWriter.write(TraceWriter.frame(frame), pretty: false))
    }
}
