import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Core Animation inside transitions: a layer animation is scrubbed by an interactive
/// transition like a view block, its delegate and a CATransaction completion run at the right
/// virtual times also when the transition is cancelled, and a cancel puts the layers back.
final class LayerTransitionTests: XCTestCase {
    /// A circular reveal: the to-view gets a shape-layer mask whose path grows over the duration,
    /// a shadow and a perspective; the delegate completes the transition. The cleanup is
    /// deliberately left to the host on a cancel (the mask stays), to check the restoration.
    final class RevealAnimator: TransitionAnimator {
        var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-reveal", id: "reveal") }
        var log: [String] = []
        var mask: Layer?
        func transitionDuration(_ context: TransitionContext) -> Double { 1 }
        func animateTransition(_ ctx: TransitionContext) {
            let to = ctx.view(forKey: .to), e = ctx.containerView.engine
            ctx.containerView.addSubview(to)
            let mask = Layer(engine: e, kind: .shape)
            self.mask = mask
            let small = Path.ellipse(in: Rect(x: 0, y: 0, width: 10, height: 10))
            let big = Path.ellipse(in: Rect(x: 0, y: 0, width: 1010, height: 1010))
            e.coreAnimation.disableActions = true
            mask.setModelValue(.path(big), for: .path)
            to.mask = mask
            to.layerStyle.shadow.opacity = 0.5
            e.coreAnimation.beginTransaction()
            e.coreAnimation.setCompletionBlock { [self] in log.append("tx \(e.now)") }
            e.coreAnimation.add(LayerAnimation(kind: .basic(from: .path(small), to: .path(big), by: nil), keyPath: "path", duration: 1),
                                forKey: "reveal", to: .layer(mask),
                                onStop: { [self] finished in
                                    log.append("stop \(finished) \(e.now) cancelled \(ctx.transitionWasCancelled)")
                                    ctx.completeTransition(!ctx.transitionWasCancelled)
                                })
            e.coreAnimation.commitTransaction()
        }
    }

    private func maskWidth(_ e: AnimationEngine, _ l: Layer) -> Double {
        e.coreAnimation.presentation(of: l).shape?.path?.pathBoundingBox.width ?? .nan
    }

    func testInteractiveCancelScrubsRunsBackAndRestoresTheLayers() {
        let f = Fixture(.modal)
        let reveal = RevealAnimator()
        f.route { reveal }
        let before = ViewState(of: f.b.view)
        let ic = InteractionController()
        f.forward(interaction: ic)
        f.run(0.2)
        ic.update(0.5)
        f.run(0.1)
        let mask = try! XCTUnwrap(reveal.mask)
        XCTAssertEqual(maskWidth(f.engine, mask), 510, accuracy: 1e-9, "scrubbed to half way, linearly")
        let cancelledAt = f.engine.now
        ic.cancel()
        f.run()
        // Cancel runs back 0.5 s of animation at completion speed 1 along ease-in-out, then the
        // delegate stops (finished, as view blocks do) with the context cancelled.
        XCTAssertEqual(reveal.log.count, 2, "\(reveal.log)")
        XCTAssertEqual(reveal.log.first, "stop true \(cancelledAt + 0.5) cancelled true")
        XCTAssertEqual(reveal.log.last, "tx \(cancelledAt + 0.5)", "the transaction completes with its animation")
        XCTAssertEqual(f.recorder.records.map(\.outcome), [.cancelled])
        XCTAssertEqual(f.recorder.records.first?.breaches ?? [], [])
        let after = ViewState(of: f.b.view)
        XCTAssertEqual(after.differences(from: before), [], "state after cancel equals state before, layers included")
        XCTAssertNil(f.b.view.mask)
        XCTAssertEqual(Set(f.recorder.records.first?.restored ?? []).isSuperset(of: ["to.mask", "to.layerStyle"]), true,
                       "\(f.recorder.records.first?.restored ?? [])")
    }

    func testFinishedTransitionCompletesFromTheDelegateAtTheAnimationsEnd() {
        let f = Fixture(.modal)
        let reveal = RevealAnimator()
        f.route { reveal }
        let start = f.engine.now
        f.forward()
        f.engine.advance(to: start + 0.25)
        let mask = try! XCTUnwrap(reveal.mask)
        XCTAssertEqual(maskWidth(f.engine, mask), 10 + 1000 * 0.25, accuracy: 1e-9)
        f.run()
        XCTAssertEqual(reveal.log, ["stop true \(start + 1.0) cancelled false", "tx \(start + 1.0)"])
        XCTAssertEqual(f.recorder.records.map(\.outcome), [.completed])
        XCTAssertEqual(f.recorder.records.first?.end ?? -1, start + 1, accuracy: 1e-12)
        XCTAssertNotNil(f.b.view.mask, "a completed transition keeps what the animator left")
    }
}
