import TransHostScenario
import XCTest

/// Frame instants: k / fps below the duration, then the duration itself.
final class FrameTimesTests: XCTestCase {
    func testADurationThatWasACFloatDoesNotGainAFrameJustBeforeItsEnd() {
        let float = Double(Float(0.6)) // 0.6000000238418579
        XCTAssertEqual(ScenarioRunner.frameTimes(duration: float, fps: 60).count, 37)
        XCTAssertEqual(ScenarioRunner.frameTimes(duration: 0.6, fps: 60).count, 37)
        XCTAssertEqual(ScenarioRunner.frameTimes(duration: float, fps: 60).last, float)
    }

    func testBothEndsAreIncluded() {
        XCTAssertEqual(ScenarioRunner.frameTimes(duration: 0.25, fps: 60).count, 16)
        XCTAssertEqual(ScenarioRunner.frameTimes(duration: 0.26, fps: 60).count, 17)
        XCTAssertEqual(ScenarioRunner.frameTimes(duration: 0, fps: 60), [0])
    }

    func testFrameRatesOutsideTheRangeDoNotExist() {
        XCTAssertNil(FrameRate(0))
        XCTAssertNil(FrameRate(241))
        XCTAssertEqual(FrameRate(240)?.perSecond, 240)
    }
}
