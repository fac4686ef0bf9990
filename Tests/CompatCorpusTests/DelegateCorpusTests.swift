import Foundation
import XCTest

/// The corpus's delegates (UIViewControllerTransitioningDelegate, UINavigationControllerDelegate,
/// UITabBarControllerDelegate): the host asks them per transition, as UIKit does, and plays the
/// animator they vend; a nil answer gives the default transition.
final class DelegateCorpusTests: XCTestCase {

    /// One delegate for both containers: presentations zoom a snapshot out of a thumbnail,
    /// navigation turns over like a card (CATransform3D with m34, cubic keyframes).
    func testGalleryDelegateZoomsPresentationsAndFlipsPushes() throws {
        let run = try Corpus.play("zoom-flip-gallery", self)
        assertExitedCleanly(run)
        let t = run.trace.transitions
        XCTAssertEqual(t.map(\.operation), ["present", "dismiss", "push", "pop"])
        for x in t.prefix(2) { assertClean(x, animator: "ZoomSnapshotAnimator") }
        for x in t.suffix(2) { assertClean(x, animator: "CardFlipAnimator") }

        // Present: the snapshot starts at the 120 pt thumbnail in the middle and ends full size.
        let zoom = t[0].first.snapshots.first
        XCTAssertNotNil(zoom, "a snapshot zooms; views: \(t[0].first.views.map(\.name))")
        XCTAssertEqual(zoom?.m11 ?? .nan, 120.0 / 320, accuracy: 1e-6)
        XCTAssertEqual(zoom?.m22 ?? .nan, 120.0 / 568, accuracy: 1e-6)
        XCTAssertEqual(t[0].last.snapshots.first?.isIdentity, true, "full size at the end")
        XCTAssertEqual(t[0].first["GalleryPhoto"]?.hidden, true, "the real view waits hidden under the snapshot")

        // Push: edge-on half-way (the from-view turned a quarter about y), the new screen flat at the end.
        let push = t[2]
        let half = push.frame(at: push.duration / 2)
        XCTAssertEqual(half["GalleryGrid"]?.m11 ?? .nan, 0, accuracy: 1e-6, "cos(pi/2): edge-on at the keyframe boundary")
        XCTAssertEqual(push.last["GalleryPhoto"]?.isIdentity, true)
        XCTAssertEqual(push.first["GalleryPhoto"]?.m11 ?? .nan, 0, accuracy: 1e-6, "the back of the card starts edge-on")
        XCTAssertEqual(half["GalleryPhoto"]?.m11 ?? .nan, 0, accuracy: 1e-6, "and stays edge-on for the first half")
        XCTAssertNotEqual(half["GalleryGrid"]?.transform[3] ?? 0, 0, "in perspective: m34 = -1/500 turned into m14")
        XCTAssertEqual(run.trace.finalStack, ["GalleryGrid"])
    }

    /// UINavigationControllerDelegate vending ParallaxPushAnimator, with an
    /// EdgeSwipeInteractionController (a UIPercentDrivenInteractiveTransition subclass) attached
    /// to the pushed screen: the scenario's edge pans reach its UIScreenEdgePanGestureRecognizer,
    /// whose handler pops, updates, and finishes or cancels on its own rule.
    func testNavigationDelegateParallaxWithEdgeSwipeBack() throws {
        let run = try Corpus.play("parallax-edge-swipe", self)
        assertExitedCleanly(run)
        let t = run.trace.transitions
        XCTAssertEqual(t.map { "\($0.operation)\($0.interactive ? "*" : "")=\($0.outcome)" }, ["push=completed", "pop*=cancelled", "pop*=completed"])
        assertClean(t[0], animator: "ParallaxPushAnimator")
        assertClean(t[1], animator: "ParallaxPushAnimator", outcome: "cancelled")
        assertClean(t[2], animator: "ParallaxPushAnimator")
        // Push: the message comes in from the right edge, the list moves a third of the way left.
        XCTAssertEqual(t[0].first["InboxMessage"]?.screenX ?? .nan, 160 + 320, accuracy: 1e-6)
        XCTAssertEqual(t[0].last["InboxList"]?.screenX ?? .nan, 160 - 320 * 0.3, accuracy: 1e-6)
        // A pan that stops at 100 pt (less than half the width, slowly) is cancelled: the message
        // follows the finger, then goes back, and stays on top.
        let cancelled = t[1].track("InboxMessage").map(\.screenX)
        XCTAssertGreaterThan(cancelled.max() ?? 0, 160 + 50, "the message followed the finger")
        XCTAssertEqual(cancelled.last ?? .nan, 160, accuracy: 1e-6, "and went back")
        // A pan past half the width finishes: the message leaves to the right (the last frame
        // is after the completion, when it is gone).
        let finished = t[2].track("InboxMessage").map(\.screenX)
        XCTAssertGreaterThan(finished.last ?? 0, 160 + 300, "nearly off the right edge at the last frame before the completion")
        XCTAssertEqual(finished.first ?? .nan, 160, accuracy: 1e-6, "a new pan starts from where the screen is, not where the last one stopped")
        XCTAssertFalse(t[2].last.views.contains { $0.name == "InboxMessage" })
        XCTAssertEqual(t[2].last["InboxList"]?.screenX ?? .nan, 160, accuracy: 1e-6)
        XCTAssertEqual(run.trace.finalStack, ["InboxList"])
    }

    /// UIViewControllerTransitioningDelegate vending BottomSheetAnimator, with a
    /// PanDismissInteractionController (UIPanGestureRecognizer, velocity, completionSpeed) wired
    /// to the presented screen: a short slow pull is cancelled, a long one dismisses.
    func testTransitioningDelegateSheetWithPullDownToDismiss() throws {
        let run = try Corpus.play("modal-pan-dismiss", self)
        assertExitedCleanly(run)
        let t = run.trace.transitions
        XCTAssertEqual(t.map { "\($0.operation)\($0.interactive ? "*" : "")=\($0.outcome)" }, ["present=completed", "dismiss*=cancelled", "dismiss*=completed"])
        assertClean(t[0], animator: "BottomSheetAnimator")
        assertClean(t[1], animator: "BottomSheetAnimator", outcome: "cancelled")
        assertClean(t[2], animator: "BottomSheetAnimator")
        XCTAssertEqual(t[0].first["PlayerSheet"]?.screenY ?? .nan, 284 + 568, accuracy: 1e-6, "the sheet rises from below")
        XCTAssertEqual(t[0].last["PlayerSheet"]?.screenY ?? .nan, 284, accuracy: 1e-6)
        // Pulled 110 pt of 568 (under the 30 % threshold), slowly: it follows, then goes back up.
        let cancelled = t[1].track("PlayerSheet").map(\.screenY)
        XCTAssertGreaterThan(cancelled.max() ?? 0, 284 + 50, "the sheet followed the finger down")
        XCTAssertEqual(cancelled.last ?? .nan, 284, accuracy: 1e-6, "and went back up")
        // Pulled 280 pt: dismissed, the sheet sinks off the bottom.
        let finished = t[2].track("PlayerSheet").map(\.screenY)
        XCTAssertEqual(finished.first ?? .nan, 284, accuracy: 1e-6, "a new pull starts where the sheet is, not where the last one stopped")
        XCTAssertEqual(finished.last ?? .nan, 284 + 568, accuracy: 1, "off the bottom edge")
        XCTAssertEqual(run.trace.finalPresented, [])
    }

    /// tabBarController(_:animationControllerForTransitionFrom:to:) picks the direction from the
    /// tab indices.
    func testTabDelegateSlidesTowardsTheChosenTab() throws {
        let run = try Corpus.play("tab-slide", self)
        assertExitedCleanly(run)
        let t = run.trace.transitions
        XCTAssertEqual(t.map { "\($0.from)->\($0.to)" }, ["FeedTab->ProfileTab", "ProfileTab->SearchTab", "SearchTab->FeedTab"])
        for x in t { assertClean(x, animator: "TabSlideAnimator"); XCTAssertEqual(x.duration, 0.3) }
        // Feed (0) -> Profile (2): the content moves left, the new tab comes from the right.
        XCTAssertEqual(t[0].first["ProfileTab"]?.screenX ?? .nan, 160 + 320, accuracy: 1e-6)
        XCTAssertEqual(t[0].last["FeedTab"]?.screenX ?? .nan, 160 - 320, accuracy: 1e-6)
        // Profile (2) -> Search (1): the other way.
        XCTAssertEqual(t[1].first["SearchTab"]?.screenX ?? .nan, 160 - 320, accuracy: 1e-6)
        XCTAssertEqual(t[1].last["ProfileTab"]?.screenX ?? .nan, 160 + 320, accuracy: 1e-6)
        XCTAssertEqual(t[2].last["FeedTab"]?.screenX ?? .nan, 160, accuracy: 1e-6)
        XCTAssertEqual(run.trace.finalSelected, 0)
    }
}

/// The seeds' Objective-C animators and delegates, transliterated line by line into Swift,
/// compile unchanged and play as the seeds wrote them (their 320 x 568 constants, their 90
/// radians, their unconditional completeTransition(true)).
final class SeedCorpusTests: XCTestCase {

    /// Seed 000's IACModalTransition through the seed's delegate methods.
    func testSeed000ModalSplitsTheScreenAndGrowsTheImage() throws {
        let run = try Corpus.play("seed000-modal", self)
        let (present, dismiss) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(present, animator: "IACModalTransition")
        XCTAssertEqual(present.duration, 1.0)
        XCTAssertEqual(dismiss.duration, 0.5, "transitionDuration reports dismissalDuration")
        // Two 160 pt halves of the presenting screen's snapshot fly apart by 120 pt.
        let halves = present.first.snapshots.filter { abs($0.width - 160) < 1e-6 }
        XCTAssertEqual(halves.count, 2, "\(present.first.snapshots.map(\.bounds))")
        let image = present.track("IACImageViewController")
        XCTAssertEqual(image.first?.m11 ?? .nan, 0, accuracy: 1e-6, "grows from scale 0")
        XCTAssertEqual(image.first?.alpha ?? .nan, 0.6, accuracy: 1e-6)
        XCTAssertEqual(image.last?.m11 ?? .nan, 1, accuracy: 1e-6)
        XCTAssertEqual(present.frame(at: 0.5)["IACImageViewController"]?.m11 ?? .nan, 0, accuracy: 1e-6, "the second keyframe starts half-way")
        // The seed's own bug, kept by the transliteration: its dismissal never puts the presenting
        // view back (it adds only snapshots), which a full-screen presentation needs. The host
        // names that and repairs it; nothing else is wrong.
        XCTAssertEqual(run.status, 4, "exit 4: the seed's breach\n\(run.output.stdout)")
        XCTAssertEqual(dismiss.animator, "\(Corpus.plugin)/IACModalTransition")
        XCTAssertEqual(dismiss.outcome, "completed")
        XCTAssertEqual(dismiss.breaches.map(\.kind), ["to-view-missing"], "\(dismiss.breaches)")
        XCTAssertEqual(run.trace.finalPresented, [])
    }

    /// Seed 000's IACNavigationTransition: the pushed view swings down from upside down about
    /// its top edge on a spring.
    func testSeed000NavigationSwingsTheNewScreenDown() throws {
        let run = try Corpus.play("seed000-navigation", self)
        assertExitedCleanly(run)
        let (push, pop) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(push, animator: "IACNavigationTransition")
        assertClean(pop, animator: "IACNavigationTransition")
        let detail = try XCTUnwrap(push.first["IACDetailViewController"])
        XCTAssertEqual(detail.anchor, [0.5, 0])
        XCTAssertEqual(detail.position, [160, 0])
        XCTAssertEqual(detail.m11, -1, accuracy: 1e-6, "rotated by -pi")
        XCTAssertEqual(push.last["IACDetailViewController"]?.m11 ?? .nan, 1, accuracy: 0.01)
        XCTAssertLessThan(push.track("MasterViewController").last?.screenX ?? .nan, 0, "the old screen flies off to the left")
    }

    /// Seed 001's CustomPushAnimation (3 s, corner to corner), CustomPopAnimation (2 s, top to
    /// bottom) and CustomPresentAnimation (1.3 s spring with snapshots), through FirstViewController's
    /// delegate methods.
    func testSeed001AnimatesPushPopPresentAndDismiss() throws {
        let run = try Corpus.play("seed001", self)
        assertExitedCleanly(run)
        let t = run.trace.transitions
        XCTAssertEqual(t.map(\.operation), ["push", "pop", "present", "dismiss"])
        for (x, animator) in zip(t, ["CustomPushAnimation", "CustomPopAnimation", "CustomPresentAnimation", "CustomPresentAnimation"]) {
            assertClean(x, animator: animator)
        }
        XCTAssertEqual(t.map(\.duration), [3.0, 2.0, 1.3, 1.3])
        XCTAssertEqual(t[0].first["SecondViewController"]?.tx ?? .nan, 320, accuracy: 1e-6)
        XCTAssertEqual(t[0].first["SecondViewController"]?.ty ?? .nan, 568, accuracy: 1e-6)
        XCTAssertEqual(t[0].last["FirstViewController"]?.ty ?? .nan, -568, accuracy: 1e-6)
        XCTAssertEqual(t[1].first["FirstViewController"]?.ty ?? .nan, -568, accuracy: 1e-6)
        XCTAssertEqual(t[1].last["SecondViewController"]?.ty ?? .nan, 568, accuracy: 1e-6)
        let slides = t[2].track("snapshot of ThirdViewController").map(\.tx)
        XCTAssertEqual(slides.first ?? .nan, -320, accuracy: 1e-6)
        XCTAssertGreaterThan(slides.max() ?? 0, 0, "damping 0.5 overshoots")
    }

    /// Seed 004's objc.io Animator through its navigation delegate: pushes shrink the old screen
    /// to a tenth while the new one fades in; the delegate returns nil for pops, so the host's
    /// default transition runs.
    func testSeed004AnimatesPushesOnlyAndPopsGetTheDefault() throws {
        let run = try Corpus.play("seed004", self)
        assertExitedCleanly(run)
        let (push, pop) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(push, animator: "Animator")
        XCTAssertEqual(push.duration, 0.25)
        XCTAssertEqual(push.last["A"]?.m11 ?? .nan, 0.1, accuracy: 1e-6)
        XCTAssertEqual(push.first["B"]?.alpha ?? .nan, 0, accuracy: 1e-6)
        XCTAssertEqual(push.last["B"]?.alpha ?? .nan, 1, accuracy: 1e-6)
        XCTAssertNil(pop.animator, "nil from the delegate: the default pop")
        XCTAssertEqual(pop.outcome, "completed")
    }
}
