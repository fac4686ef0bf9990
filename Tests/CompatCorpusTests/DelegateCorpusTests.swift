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
        // A pan past half the width finishes: the message leaves to the right. The last frame is
        // taken before the completion (docs/trace.md's frame rule), `after` once it is gone.
        let finished = t[2].track("InboxMessage").map(\.screenX)
        XCTAssertGreaterThan(finished.last ?? 0, 160 + 300, "nearly off the right edge at the last frame before the completion")
        XCTAssertEqual(finished.first ?? .nan, 160, accuracy: 1e-6, "a new pan starts from where the screen is, not where the last one stopped")
        XCTAssertFalse(t[2].after.views.contains { $0.name == "InboxMessage" })
        XCTAssertEqual(t[2].last["InboxList"]?.screenX ?? .nan, 160, accuracy: 1e-6)
        XCTAssertEqual(t[2].after["InboxList"]?.screenX ?? .nan, 160, accuracy: 1e-6)
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

    /// A hand-written UIViewControllerInteractiveTransitioning (InteractivePopTransition): the
    /// delegate attaches a pan to each pushed screen in navigationController(_:didShow:animated:),
    /// the handler pops and then moves the screen itself, telling the context the progress; the
    /// release springs it home (cancel) or away (finish). Pushes get the system default.
    func testCustomInteractiveTransitionFollowsThePanItself() throws {
        let run = try Corpus.play("swipe-back", self)
        assertExitedCleanly(run)
        let t = run.trace.transitions
        XCTAssertEqual(t.map { "\($0.operation)\($0.interactive ? "*" : "")=\($0.outcome)" }, ["push=completed", "pop*=cancelled", "pop*=completed"])
        XCTAssertNil(t[0].animator, "nil for pushes: the default push")
        assertClean(t[1], animator: "InteractivePopTransition", outcome: "cancelled")
        assertClean(t[2], animator: "InteractivePopTransition")
        // A 90 pt pan, released slowly: the screen follows the finger, then springs back.
        let cancelled = t[1].track("SwipeDetail").map(\.screenX)
        XCTAssertEqual(cancelled.first ?? .nan, 160, accuracy: 1e-6)
        XCTAssertEqual(cancelled.max() ?? .nan, 160 + 80, accuracy: 1e-6, "the last .changed sample (80 pt)")
        XCTAssertEqual(cancelled.last ?? .nan, 160, accuracy: 0.5, "and springs home")
        XCTAssertEqual(t[1].first["SwipeList"]?.alpha ?? .nan, 0.5, accuracy: 1e-6, "the screen below starts dimmed")
        // A 220 pt pan: it springs away to the right and the list brightens to 1.
        let finished = t[2].track("SwipeDetail").map(\.screenX)
        XCTAssertEqual(finished.first ?? .nan, 160, accuracy: 1e-6)
        XCTAssertEqual(finished.last ?? .nan, 160 + 320, accuracy: 0.5)
        XCTAssertEqual(t[2].track("SwipeList").last?.alpha ?? .nan, 1, accuracy: 0.01)
        XCTAssertEqual(run.trace.finalStack, ["SwipeList"])
    }

    /// A delegate that vends a UIPresentationController subclass beside its animator, for a
    /// `.custom` presentation: the file compiles as written, the sheet rises to the lower half
    /// its controller asks for, the presenting screen stays behind it, and the scrim the
    /// controller adds in presentationTransitionWillBegin fades in alongside and goes when the
    /// dismissal completes.
    func testDelegateWithAPresentationControllerPlaysAHalfSheet() throws {
        let run = try Corpus.play("half-sheet", self)
        assertExitedCleanly(run)
        let (present, dismiss) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(present, animator: "BottomSheetAnimator")
        assertClean(dismiss, animator: "BottomSheetAnimator")
        // The lower half is y 284...568, centred at 426; hidden, it is a screen further down.
        XCTAssertEqual(present.first["HalfSheetPicker"]?.screenY ?? .nan, 426 + 568, accuracy: 1e-6, "rises from below the screen")
        XCTAssertEqual(present.after["HalfSheetPicker"]?.screenY ?? .nan, 426, accuracy: 1e-6, "to the lower half")
        XCTAssertEqual(present.after["HalfSheetPicker"]?.height ?? .nan, 284, accuracy: 1e-6)
        XCTAssertEqual(dismiss.last["HalfSheetPicker"]?.screenY ?? .nan, 426 + 568, accuracy: 1e-6, "and sinks back")
        XCTAssertNotNil(present.after["HalfSheetHome"], "the presenting screen stays (custom)")
        func scrim(_ f: Frame) -> ViewState? { f.views.first { $0.name == "\(Corpus.plugin) view" && $0.width == 320 && $0.height == 568 } }
        XCTAssertEqual(scrim(present.first)?.alpha ?? .nan, 0, accuracy: 1e-9)
        assertMonotonic(present.frames.compactMap { scrim($0)?.alpha }, increasing: true, "the scrim's alpha")
        XCTAssertEqual(scrim(present.after)?.alpha ?? .nan, 1, accuracy: 1e-9)
        XCTAssertNil(scrim(dismiss.after), "dismissalTransitionDidEnd(true) removed the scrim")
        XCTAssertEqual(run.trace.finalPresented, [])
    }

    /// A navigation delegate that also fades the incoming title alongside from
    /// navigationController(_:willShow:animated:): the file compiles as written, its cross-fade
    /// plays, and the shown screen's title fades in with it through the transition coordinator
    /// willShow already sees.
    func testDelegateWithAnAlongsideFadeFromWillShowPlaysItsAnimator() throws {
        let run = try Corpus.play("alongside-title", self)
        assertExitedCleanly(run)
        for (t, shown) in zip(run.trace.transitions, ["NoteDetail", "NotesList"]) {
            assertClean(t, animator: "CrossfadeAnimator")
            let alphas = t.track(shown).map(\.alpha)
            XCTAssertEqual(alphas.first ?? .nan, 0, accuracy: 1e-6, "\(shown) fades in")
            XCTAssertEqual(alphas.last ?? .nan, 1, accuracy: 1e-6)
            let titles = t.frames.compactMap { f in f[shown].flatMap { screen in f.views.first { $0.name == "title" && $0.parent == screen.id } } }
            XCTAssertEqual(titles.count, t.frames.count, "\(shown) has its title in every frame")
            XCTAssertEqual(titles.first?.alpha ?? .nan, 0, accuracy: 1e-6, "\(shown)'s title starts hidden")
            assertMonotonic(titles.map(\.alpha), increasing: true, "\(shown)'s title alpha")
            XCTAssertEqual(titles.last?.alpha ?? .nan, 1, accuracy: 1e-6, "and fades in alongside")
            XCTAssertEqual(t.after.views.first { $0.name == "title" && $0.parent == t.after[shown]?.id }?.alpha ?? .nan, 1)
        }
        XCTAssertEqual(run.trace.finalStack, ["NotesList"])
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
