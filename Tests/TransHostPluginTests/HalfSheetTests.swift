import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostRun
import TransHostScenario
import TransHostSupport
import XCTest

/// half-sheet (Swift, the kit's UIPresentationController and transition coordinator), through
/// its demo: a tab bar of two navigation controllers, a push in each, the sheet (a navigation
/// controller) presented over the tab bar with a custom presentation controller, a push inside
/// it, and a pull-down on the sheet that is cancelled once and then finishes.
final class HalfSheetTests: XCTestCase {
    static let veil = Color(red: 0, green: 0, blue: 0, alpha: 0.4)

    func play() throws -> Playback {
        try Products.play(try Products.demo("half-sheet", test: self), plugins: ["half-sheet"], test: self)
    }

    /// The dimming view: the presentation controller's veil (black at 40%), in the container.
    func veil(_ frame: TraceFrame) -> PresentationNode? {
        frame.nodes.first { $0.state.backgroundColor == Self.veil && $0.state.bounds.size == Size(width: 320, height: 568) }
    }

    func testTheDemoPlaysTheWholeAppModel() throws {
        let run = try play().run
        XCTAssertEqual(run.breaches, [], "\(run.breaches)")
        XCTAssertEqual(run.errors, [])
        let records = run.transitions.map(\.record)
        XCTAssertEqual(records.map { "\($0.container.rawValue) \($0.operation.rawValue) \($0.fromType) -> \($0.toType)" }, [
            "navigation push FeedController -> StoryController",
            "tab select UINavigationController -> UINavigationController",
            "navigation push ProfileController -> SettingsController",
            "tab select UINavigationController -> UINavigationController",
            "modal present UITabBarController -> HalfSheetController",
            "navigation push ShareController -> ShareTargetController",
            "modal dismiss HalfSheetController -> UITabBarController",
            "modal dismiss HalfSheetController -> UITabBarController"], "\(run.warnings)")
        let sheet = AnimatorIdentity(plugin: "half-sheet", id: "SheetSlideAnimator")
        XCTAssertEqual(records[4].animator, sheet)
        XCTAssertEqual(records[6].animator, sheet)
        XCTAssertEqual(records[6].interactive, true)
        XCTAssertEqual(records[6].outcome, .cancelled)
        XCTAssertEqual(records[7].interactive, true)
        XCTAssertEqual(records[7].outcome, .completed)
        XCTAssertTrue(records.allSatisfy { $0.repairs.isEmpty }, "\(records.map(\.repairs))")
        XCTAssertEqual(run.finalPresented, [])
    }

    /// The veil fades in alongside the 0.4 s present with the coordinator's ease-in-out, while
    /// the sheet slides up with ease-out to the lower half; the tab bar's view stays behind.
    func testTheDimmingFadesInAlongsideThePresent() throws {
        let present = try play().run.transitions[4]
        XCTAssertEqual(present.record.duration, 0.4)
        for step in 0...24 {
            let t = Double(step) / 60
            let frame = try present.frame(at: t)
            let dimming = try XCTUnwrap(veil(frame), "no dimming view at t = \(t)")
            XCTAssertEqual(dimming.state.alpha, Reference.easeInOut(t / 0.4), accuracy: 1e-4, "t = \(t)")
            XCTAssertTrue(frame.has("StoryController"), "the presenter's screen stays behind the sheet")
            let sheet = try frame.node(named: "HalfSheetController")
            let rise = 284 * (1 - Reference.bezier(t / 0.4, 0, 0, 0.58, 1))
            XCTAssertEqual(sheet.state.transform.m42, rise, accuracy: 1e-3, "t = \(t): the sheet slides up with ease-out")
        }
        let after = present.after
        XCTAssertEqual(try XCTUnwrap(veil(after)).state.alpha, 1)
        XCTAssertEqual(try after.node(named: "HalfSheetController").state.frame, Rect(x: 0, y: 284, width: 320, height: 284))
        XCTAssertTrue(after.has("StoryController"), "custom: the presenter's view is not removed")
    }

    /// The pull-down follows the finger over the sheet's height, the veil with it (the
    /// dismissal's alongside fade, scrubbed); released short and slow it is cancelled, the sheet
    /// and the veil come back; the second pull finishes and takes both away.
    func testThePullDownIsCancelledThenFinishes() throws {
        let run = try play().run
        let cancelled = run.transitions[6], finished = run.transitions[7]
        // After the 0.2 s sample the finger is 60 points down: progress 60 / 284.
        let p = 60.0 / 284
        let atFinger = try cancelled.frame(at: 0.25)
        XCTAssertEqual(try atFinger.node(named: "HalfSheetController").state.transform.m42, 60, accuracy: 1e-6,
                       "the sheet is under the finger (a linear dismissal while interactive)")
        XCTAssertEqual(try XCTUnwrap(veil(atFinger)).state.alpha, 1 - Reference.easeInOut(p), accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(veil(cancelled.after)).state.alpha, 1, "the cancel puts the veil back")
        XCTAssertEqual(try cancelled.after.node(named: "HalfSheetController").state.transform.m42, 0)
        XCTAssertNil(veil(finished.after), "the finished dismissal removes the veil")
        XCTAssertFalse(finished.after.has("HalfSheetController"))
        XCTAssertTrue(finished.after.has("StoryController"))
    }

    /// The plugin stays loaded from one playback to the next (validate, the gallery): the second
    /// playback must give the same bytes, with the veil fading in again alongside the present.
    /// Handles numbered afresh per playback once gave the kit the first run's ended context, so
    /// the second present had no coordinator and the veil appeared at full strength at once.
    func testTheDemoPlayedTwiceInOneProcessGivesTheSameTrace() throws {
        let dir = try Products.temporaryDirectory(self)
        try Products.install("half-sheet", into: dir)
        let scan = try Products.scan(dir)
        let demo = try Products.demo("half-sheet", test: self)
        let settings = TraceWriter.Settings(scale: 2)
        let first = JSONWriter.write(TraceWriter.json(Playback.play(demo, scan: scan).run, settings: settings))
        let again = Playback.play(demo, scan: scan).run
        XCTAssertEqual(try XCTUnwrap(veil(try again.transitions[4].frame(at: 0))).state.alpha, 0, accuracy: 1e-9)
        XCTAssertTrue(first == JSONWriter.write(TraceWriter.json(again, settings: settings)), "the second playback's trace differs")
    }
}
