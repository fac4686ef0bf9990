import XCTest
@testable import TransHostCore

/// Reference values worked by hand from docs/animation.md (the compose rule) and the
/// Core Animation calculation modes.
final class KeyframeTrackTests: XCTestCase {
    private func scalar(_ track: KeyframeTrack, _ p: Double) -> Double { track.value(at: p, property: .alpha)[0] }

    // MARK: compose

    /// Seed 000: two keyframes, 0-0.5 and 0.5-1, each changing a different property.
    func testSeed000Timeline() {
        // First property: animates in 0..0.5, then holds.
        let first = KeyframeTrack.compose(initial: [0], frames: [(start: 0, duration: 0.5, value: [10])], mode: .linear)
        XCTAssertEqual(first.keyTimes, [0, 0.5, 1])
        XCTAssertEqual(first.values, [[0], [10], [10]])
        XCTAssertEqual(scalar(first, 0), 0)
        XCTAssertEqual(scalar(first, 0.25), 5, accuracy: 1e-12)
        XCTAssertEqual(scalar(first, 0.5), 10)
        XCTAssertEqual(scalar(first, 0.75), 10)
        XCTAssertEqual(scalar(first, 1), 10)
        // Second property: holds its start value until 0.5, then animates.
        let second = KeyframeTrack.compose(initial: [1], frames: [(start: 0.5, duration: 0.5, value: [0])], mode: .linear)
        XCTAssertEqual(second.keyTimes, [0, 0.5, 1])
        XCTAssertEqual(second.values, [[1], [1], [0]])
        XCTAssertEqual(scalar(second, 0.25), 1)
        XCTAssertEqual(scalar(second, 0.5), 1)
        XCTAssertEqual(scalar(second, 0.75), 0.5, accuracy: 1e-12)
        XCTAssertEqual(scalar(second, 1), 0)
    }

    func testFramesAreSortedByStart() {
        let track = KeyframeTrack.compose(initial: [0], frames: [(start: 0.5, duration: 0.25, value: [20]),
                                                                (start: 0, duration: 0.25, value: [10])], mode: .linear)
        // 10 lands at 0.25 and holds until 0.5; 20 lands at 0.75 and holds through 1.
        XCTAssertEqual(track.keyTimes, [0, 0.25, 0.5, 0.75, 1])
        XCTAssertEqual(track.values, [[0], [10], [10], [20], [20]])
        XCTAssertEqual(scalar(track, 0.375), 10)
        XCTAssertEqual(scalar(track, 0.625), 15, accuracy: 1e-12)
    }

    func testAFrameLandsNoLaterThanTheNextStart() {
        // 0-0.6 overlaps 0.4-1.0: the first value lands at 0.4.
        let track = KeyframeTrack.compose(initial: [0], frames: [(start: 0, duration: 0.6, value: [10]),
                                                                (start: 0.4, duration: 0.6, value: [40])], mode: .linear)
        XCTAssertEqual(track.keyTimes, [0, 0.4, 1])
        XCTAssertEqual(track.values, [[0], [10], [40]])
        XCTAssertEqual(scalar(track, 0.2), 5, accuracy: 1e-12)
        XCTAssertEqual(scalar(track, 0.7), 25, accuracy: 1e-12)
    }

    func testInitialValueHoldsUntilTheFirstStart() {
        let track = KeyframeTrack.compose(initial: [0], frames: [(start: 0.2, duration: 0.3, value: [6])], mode: .linear)
        XCTAssertEqual(track.keyTimes, [0, 0.2, 0.5, 1])
        XCTAssertEqual(track.values, [[0], [0], [6], [6]])
        XCTAssertEqual(scalar(track, 0.1), 0)
        XCTAssertEqual(scalar(track, 0.35), 3, accuracy: 1e-12)
        XCTAssertEqual(scalar(track, 0.9), 6)
    }

    func testStartsAndDurationsAreClamped() {
        let track = KeyframeTrack.compose(initial: [0], frames: [(start: -0.5, duration: 2, value: [8])], mode: .linear)
        XCTAssertEqual(track.keyTimes, [0, 1])
        XCTAssertEqual(track.values, [[0], [8]])
        XCTAssertEqual(scalar(track, 0.25), 2, accuracy: 1e-12)
    }

    func testZeroDurationFrameJumps() {
        let track = KeyframeTrack.compose(initial: [0], frames: [(start: 0.5, duration: 0, value: [8])], mode: .linear)
        XCTAssertEqual(track.keyTimes, [0, 0.5, 0.5, 1])
        XCTAssertEqual(scalar(track, 0.49), 0)
        XCTAssertEqual(scalar(track, 0.5), 8)
        XCTAssertEqual(scalar(track, 0.8), 8)
    }

    func testCalculationModeFromOptionBits() {
        XCTAssertEqual(KeyframeCalculationMode(optionBits: 0), .linear)
        XCTAssertEqual(KeyframeCalculationMode(optionBits: 1 << 10), .discrete)
        XCTAssertEqual(KeyframeCalculationMode(optionBits: 2 << 10), .paced)
        XCTAssertEqual(KeyframeCalculationMode(optionBits: 3 << 10), .cubic)
        XCTAssertEqual(KeyframeCalculationMode(optionBits: 4 << 10), .cubicPaced)
    }

    // MARK: Calculation modes

    func testLinear() {
        let track = KeyframeTrack(keyTimes: [0, 0.25, 0.5, 1], values: [[0], [10], [20], [30]], mode: .linear)
        XCTAssertEqual(scalar(track, 0.125), 5, accuracy: 1e-12)
        XCTAssertEqual(scalar(track, 0.375), 15, accuracy: 1e-12)
        XCTAssertEqual(scalar(track, 0.75), 25, accuracy: 1e-12)
        XCTAssertEqual(scalar(track, 1), 30)
        // Progress outside [0, 1] holds the ends.
        XCTAssertEqual(scalar(track, -0.2), 0)
        XCTAssertEqual(scalar(track, 1.3), 30)
    }

    func testDiscrete() {
        let track = KeyframeTrack(keyTimes: [0, 0.25, 0.5, 1], values: [[0], [10], [20], [30]], mode: .discrete)
        XCTAssertEqual(scalar(track, 0), 0)
        XCTAssertEqual(scalar(track, 0.2), 0)
        XCTAssertEqual(scalar(track, 0.25), 10)
        XCTAssertEqual(scalar(track, 0.49), 10)
        XCTAssertEqual(scalar(track, 0.5), 20)
        XCTAssertEqual(scalar(track, 0.99), 20)
        XCTAssertEqual(scalar(track, 1), 30)
    }

    func testPacedIgnoresKeyTimes() {
        // Distances 5 ((0,0) -> (3,4)) and 10 ((3,4) -> (3,14)): paced key times 0, 1/3, 1.
        let track = KeyframeTrack(keyTimes: [0, 0.9, 1], values: [[0, 0], [3, 4], [3, 14]], mode: .paced)
        let a = track.value(at: 1.0 / 6, property: .position)
        XCTAssertEqual(a[0], 1.5, accuracy: 1e-12)
        XCTAssertEqual(a[1], 2, accuracy: 1e-12)
        let b = track.value(at: 2.0 / 3, property: .position)
        XCTAssertEqual(b[0], 3, accuracy: 1e-12)
        XCTAssertEqual(b[1], 9, accuracy: 1e-12)
        XCTAssertEqual(track.value(at: 1, property: .position), [3, 14])
        XCTAssertEqual(KeyframeTrack.pacedKeyTimes([[0, 0], [3, 4], [3, 14]])[1], 1.0 / 3, accuracy: 1e-15)
        // All values equal: uniform, constant.
        let still = KeyframeTrack(keyTimes: [0, 0.1, 1], values: [[2], [2], [2]], mode: .paced)
        XCTAssertEqual(scalar(still, 0.3), 2)
        XCTAssertEqual(KeyframeTrack.pacedKeyTimes([[2], [2], [2]]), [0, 0.5, 1])
    }

    func testPacedTransformsUseTheSixteenValues() {
        // Translations 50 and then 100 apart: key times 0, 1/3, 1.
        let values = [Transform3D.identity, .translation(30, 40, 0), .translation(30, 140, 0)].map(\.values)
        let track = KeyframeTrack(keyTimes: [0, 0.5, 1], values: values, mode: .paced)
        let m = Transform3D(track.value(at: 2.0 / 3, property: .transform))
        XCTAssertEqual(m.m41, 30, accuracy: 1e-9)
        XCTAssertEqual(m.m42, 90, accuracy: 1e-9)
    }

    func testLinearAndDiscreteTransformsInterpolateByDecomposition() {
        let values = [Transform3D.identity.values, Transform3D.rotation(.pi, 0, 0, 1).values]
        let m = Transform3D(KeyframeTrack(keyTimes: [0, 1], values: values, mode: .linear).value(at: 0.5, property: .transform))
        // A quarter turn, not the component-wise collapse to a zero matrix.
        XCTAssertEqual(abs(m.m12), 1, accuracy: 1e-12)
        XCTAssertEqual(m.m11, 0, accuracy: 1e-12)
        let d = KeyframeTrack(keyTimes: [0, 0.5, 1], values: values + [values[1]], mode: .discrete)
        XCTAssertEqual(d.value(at: 0.4, property: .transform), values[0])
        XCTAssertEqual(d.value(at: 0.6, property: .transform), values[1])
    }

    func testCubicIsCatmullRomPerKeyTimeSegment() {
        // Values 0, 10, 20, 0. Tangents (v[i+1] - v[i-1]) / 2, ends using the end value itself:
        // m0 = 5, m1 = 10, m2 = -5, m3 = -10. At u = 1/2 Hermite gives
        // (v_i + v_i+1) / 2 + (m_i - m_i+1) / 8.
        let uniform = KeyframeTrack(keyTimes: [0, 1.0 / 3, 2.0 / 3, 1], values: [[0], [10], [20], [0]], mode: .cubic)
        XCTAssertEqual(scalar(uniform, 1.0 / 6), 4.375, accuracy: 1e-12)    // 5 + (5 - 10) / 8
        XCTAssertEqual(scalar(uniform, 0.5), 16.875, accuracy: 1e-12)       // 15 + (10 + 5) / 8
        XCTAssertEqual(scalar(uniform, 5.0 / 6), 10.625, accuracy: 1e-12)   // 10 + (-5 + 10) / 8
        XCTAssertEqual(scalar(uniform, 1.0 / 3), 10, accuracy: 1e-12)       // through the values
        XCTAssertEqual(scalar(uniform, 2.0 / 3), 20, accuracy: 1e-12)
        XCTAssertEqual(scalar(uniform, 1), 0)
        // The same values on other key times: each segment is parametrized by its own span.
        let uneven = KeyframeTrack(keyTimes: [0, 0.5, 0.75, 1], values: [[0], [10], [20], [0]], mode: .cubic)
        XCTAssertEqual(scalar(uneven, 0.25), 4.375, accuracy: 1e-12)
        XCTAssertEqual(scalar(uneven, 0.625), 16.875, accuracy: 1e-12)
        // A quarter into segment 0: h00 = 27/32, h10 = 9/64, h01 = 5/32, h11 = -3/64 -> 45/64 + 50/32 - 30/64.
        XCTAssertEqual(scalar(uneven, 0.125), 45.0 / 64 + 50.0 / 32 - 30.0 / 64, accuracy: 1e-12)
    }

    func testCubicPacedUsesPacedTimesAndCubicValues() {
        // Values 0, 10, 30: distances 10 and 20, paced key times 0, 1/3, 1 (given ones ignored).
        // Tangents m0 = 5, m1 = 15, m2 = 10.
        let track = KeyframeTrack(keyTimes: [0, 0.9, 1], values: [[0], [10], [30]], mode: .cubicPaced)
        XCTAssertEqual(scalar(track, 1.0 / 6), 3.75, accuracy: 1e-12)     // 5 + (5 - 15) / 8
        XCTAssertEqual(scalar(track, 2.0 / 3), 20.625, accuracy: 1e-12)   // 20 + (15 - 10) / 8
        XCTAssertEqual(scalar(track, 1.0 / 3), 10, accuracy: 1e-12)
    }

    func testCubicTransformsAreComponentWise() {
        let values = [0.0, 10, 20, 0].map { Transform3D.translation($0, 0, 0).values }
        let track = KeyframeTrack(keyTimes: [0, 1.0 / 3, 2.0 / 3, 1], values: values, mode: .cubic)
        let m = Transform3D(track.value(at: 0.5, property: .transform))
        XCTAssertEqual(m.m41, 16.875, accuracy: 1e-12)
        XCTAssertEqual(m.m11, 1, accuracy: 1e-12)
        XCTAssertEqual(m.m44, 1, accuracy: 1e-12)
    }

    func testDegenerateTracks() {
        XCTAssertEqual(KeyframeTrack(keyTimes: [], values: [], mode: .linear).value(at: 0.5, property: .alpha), [])
        for mode in KeyframeCalculationMode.allCases {
            XCTAssertEqual(KeyframeTrack(keyTimes: [0], values: [[3]], mode: mode).value(at: 0.5, property: .alpha), [3])
            // Mismatched key times fall back to uniform ones instead of trapping.
            let odd = KeyframeTrack(keyTimes: [0, 1], values: [[0], [10], [20]], mode: mode)
            XCTAssertTrue(odd.value(at: 0.7, property: .alpha)[0].isFinite)
            XCTAssertFalse(odd.value(at: .nan, property: .alpha)[0].isNaN)
        }
    }
}
