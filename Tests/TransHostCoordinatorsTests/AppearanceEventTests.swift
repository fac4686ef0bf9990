import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// will/did appear/disappear stay balanced on every path, cancel included.
final class AppearanceEventTests: XCTestCase {
    func testBalancedOnCompleteCancelDefaultNonAnimatedAndBreaches() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            // completed (default), completed (routed), cancelled (interactive), non-animated, watchdog.
            f.forward(); f.run()
            f.back(); f.run()
            f.route { FadeScaleAnimator() }
            f.forward(); f.run()
            f.back(); f.run()
            let ic = InteractionController()
            f.forward(interaction: ic); ic.update(0.5); ic.cancel(); f.run()
            f.forward(animated: false); f.run()
            f.back(animated: false); f.run()
            f.route { NeverCompletingAnimator() }
            f.forward(); f.run()
            f.route { TwiceCompletingAnimator() }
            f.back(); f.run()
            XCTAssertEqual(f.recorder.records.count, 9, "\(kind)")
            XCTAssertNil(appearanceProblem(f.recorder.records, initiallyVisible: ["a"]), "\(kind)")
        }
    }

    func testCancelSequenceMatchesUIKit() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { FadeScaleAnimator() }
            let ic = InteractionController()
            f.forward(interaction: ic)
            ic.cancel()
            f.run()
            let events = f.recorder.records.first?.appearance.map { "\($0.controller).\($0.kind.rawValue)" }
            XCTAssertEqual(events, ["a.willDisappear", "b.willAppear", "b.willDisappear", "b.didDisappear",
                                    "a.willAppear", "a.didAppear"], "\(kind)")
            XCTAssertTrue(f.recorder.records.first?.appearance.allSatisfy(\.animated) ?? false)
        }
    }

    func testCompleteSequenceAndTimes() {
        let f = Fixture(.modal)
        f.modal.present(f.b)
        f.run()
        let events = f.recorder.records.first?.appearance ?? []
        XCTAssertEqual(events.map { "\($0.controller).\($0.kind.rawValue)" },
                       ["a.willDisappear", "b.willAppear", "a.didDisappear", "b.didAppear"])
        XCTAssertEqual(events.map(\.time), [0, 0, 0.3, 0.3])
    }
}
