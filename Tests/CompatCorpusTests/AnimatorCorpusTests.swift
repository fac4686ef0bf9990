import Foundation
import XCTest

/// The corpus's plain animators (Tests/CompatCorpus/Swift/Corpus), each routed by the manifest
/// and played through its scenario by the real binary: the routed animator ran, the frames move
/// the way the file means, the transition completed and the host saw no contract breach.
/// iPhone 5 (320 x 568) unless a scenario says otherwise.
final class AnimatorCorpusTests: XCTestCase {

    func testCrossfadeFadesTheNewScreenInOverTheOldOne() throws {
        let run = try Corpus.play("crossfade", self)
        assertExitedCleanly(run)
        let (push, pop) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(push, animator: "crossfade")
        assertClean(pop, animator: "crossfade")
        XCTAssertEqual(push.duration, 0.35)
        for (t, shown, left) in [(push, "CrossfadeDetail", "CrossfadeList"), (pop, "CrossfadeList", "CrossfadeDetail")] {
            let alphas = t.track(shown).map(\.alpha)
            XCTAssertEqual(alphas.first ?? .nan, 0, accuracy: 1e-6, "\(shown) starts transparent")
            XCTAssertEqual(alphas.last ?? .nan, 1, accuracy: 1e-6, "\(shown) ends opaque")
            assertMonotonic(alphas, increasing: true, "\(shown)'s alpha")
            XCTAssertTrue(t.track(left).allSatisfy { abs($0.alpha - 1) < 1e-6 }, "\(left) stays opaque under it")
        }
        XCTAssertEqual(run.trace.finalStack, ["CrossfadeList"])
    }

    /// UIScreen.main.bounds is the scenario's device: on an iPhone 8 the slide is 375 pt.
    func testSlideMovesBothScreensByTheScreenWidth() throws {
        let run = try Corpus.play("slide", self)
        assertExitedCleanly(run)
        let (push, pop) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(push, animator: "slide-left")
        assertClean(pop, animator: "slide-right")
        let w = 375.0, mid = w / 2
        XCTAssertEqual(push.first["SlideDetail"]?.screenX ?? .nan, mid + w, accuracy: 1e-6, "the pushed screen starts one screen to the right")
        XCTAssertEqual(push.last["SlideDetail"]?.screenX ?? .nan, mid, accuracy: 1e-6)
        XCTAssertEqual(push.last["SlideList"]?.screenX ?? .nan, mid - w, accuracy: 1e-6, "the old screen leaves to the left")
        assertMonotonic(push.track("SlideDetail").map(\.screenX), increasing: false, "the pushed screen's x")
        XCTAssertEqual(pop.first["SlideList"]?.screenX ?? .nan, mid - w, accuracy: 1e-6, "the pop slides the other way")
        XCTAssertEqual(pop.last["SlideDetail"]?.screenX ?? .nan, mid + w, accuracy: 1e-6)
    }

    func testSpringPresentOvershootsThenDropsOffTheBottom() throws {
        let run = try Corpus.play("spring-present", self)
        assertExitedCleanly(run)
        let (present, dismiss) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(present, animator: "spring-present")
        assertClean(dismiss, animator: "spring-present")
        XCTAssertEqual(present.duration, 0.6, "isBeingPresented is true while presenting")
        XCTAssertEqual(dismiss.duration, 0.3)
        let scales = present.track("SpringCard").map(\.m11)
        XCTAssertEqual(scales.first ?? .nan, 0.8, accuracy: 1e-6)
        XCTAssertEqual(scales.last ?? .nan, 1, accuracy: 0.01)
        XCTAssertGreaterThan(scales.max() ?? 0, 1.0001, "damping 0.6 overshoots full size")
        XCTAssertEqual(present.first["SpringCard"]?.alpha ?? .nan, 0, accuracy: 1e-6)
        XCTAssertEqual(dismiss.first["SpringCard"]?.y ?? .nan, 284, accuracy: 1e-6)
        XCTAssertEqual(dismiss.last["SpringCard"]?.y ?? .nan, 284 + 568, accuracy: 1e-6, "center.y += the screen height")
        XCTAssertEqual(run.trace.finalPresented, [])
    }

    func testKeyframeBounceGrowsPastFullSizeAndSettles() throws {
        let run = try Corpus.play("keyframe-bounce", self)
        assertExitedCleanly(run)
        let (present, dismiss) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(present, animator: "bounce-in")
        assertClean(dismiss, animator: "bounce-out")
        let scales = present.track("BounceCard").map(\.m11)
        XCTAssertEqual(scales.first ?? .nan, 0.01, accuracy: 1e-6)
        XCTAssertEqual(scales.max() ?? .nan, 1.15, accuracy: 0.01, "the first keyframe's 1.15")
        XCTAssertEqual(scales.last ?? .nan, 1, accuracy: 1e-6)
        let peak = scales.firstIndex(of: scales.max() ?? 0) ?? 0
        XCTAssertLessThan(scales[peak...].min() ?? .nan, 0.96, "undershoots towards 0.95 after the peak")
        let behind = present.track("UINavigationController").map(\.alpha)
        XCTAssertEqual(behind.min() ?? .nan, 0.6, accuracy: 0.01, "the screen behind dims")
        XCTAssertEqual(dismiss.last["BounceCard"]?.alpha ?? .nan, 0, accuracy: 1e-6)
        XCTAssertEqual(dismiss.last["BounceCard"]?.m11 ?? .nan, 0.01, accuracy: 1e-6)
    }

    func testBubbleGrowsOutOfTheCornerInThePresentedColour() throws {
        let run = try Corpus.play("bubble", self)
        assertExitedCleanly(run)
        let (present, dismiss) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(present, animator: "bubble-present")
        assertClean(dismiss, animator: "bubble-dismiss")
        let menu = present.track("BubbleMenu")
        XCTAssertEqual(menu.first?.m11 ?? .nan, 0.001, accuracy: 1e-6)
        XCTAssertEqual(menu.first?.x ?? .nan, 320 - 44, accuracy: 1e-6, "starts at the button")
        XCTAssertEqual(menu.first?.y ?? .nan, 568 - 44, accuracy: 1e-6)
        XCTAssertEqual(menu.last?.x ?? .nan, 160, accuracy: 1e-6)
        XCTAssertEqual(menu.last?.m11 ?? .nan, 1, accuracy: 1e-6)
        // The bubble: a disc the animator made, as big as the circle around the
        // button that covers the screen (2 * hypot(276, 524)), removed at the end.
        let diameter = 2 * (276.0 * 276.0 + 524.0 * 524.0).squareRoot()
        let bubble = present.frame(at: present.duration / 2).views.first { abs($0.width - diameter) < 0.01 }
        XCTAssertNotNil(bubble, "a \(diameter) pt bubble mid-way; views: \(present.frame(at: present.duration / 2).views.map { "\($0.name) \($0.bounds)" })")
        XCTAssertEqual(dismiss.last["BubbleMenu"]?.alpha ?? .nan, 0, accuracy: 1e-6)
    }

    func testBottomSheetRisesFromBelowAndSinksBack() throws {
        let run = try Corpus.play("bottom-sheet", self)
        assertExitedCleanly(run)
        let (present, dismiss) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(present, animator: "sheet-present")
        assertClean(dismiss, animator: "sheet-dismiss")
        XCTAssertEqual(present.first["SheetPicker"]?.y ?? .nan, 284 + 568, accuracy: 1e-6, "finalFrame offset by the container's height")
        XCTAssertEqual(present.last["SheetPicker"]?.y ?? .nan, 284, accuracy: 1e-6)
        assertMonotonic(present.track("SheetPicker").map(\.y), increasing: false, "the sheet's y")
        XCTAssertEqual(dismiss.last["SheetPicker"]?.y ?? .nan, 284 + 568, accuracy: 1e-6)
        XCTAssertEqual(run.trace.finalPresented, [])
    }

    /// UIView.transition(from:to:) with a flip: the old screen turns away about the vertical
    /// axis and the new one is in the container at the end.
    func testFlipTransitionTurnsTheScreenOver() throws {
        let run = try Corpus.play("flip-transition", self)
        assertExitedCleanly(run)
        let (push, pop) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(push, animator: "flip-push")
        assertClean(pop, animator: "flip-pop")
        for t in [push, pop] {
            let middle = t.frame(at: t.duration / 4)
            XCTAssertTrue(middle.views.contains { !$0.isIdentity && abs($0.m11) < 0.99 }, "something is turned about y a quarter of the way in: \(t.summary)")
            XCTAssertTrue(t.last.views.contains { $0.name == t.to && !$0.hidden }, "\(t.to) is on screen at the end")
        }
    }

    /// UIView.transition(with:) with a curl up, then down.
    func testPageCurlCurlsUpAndDown() throws {
        let run = try Corpus.play("page-curl", self)
        assertExitedCleanly(run)
        let (present, dismiss) = (run.trace.transitions[0], run.trace.transitions[1])
        assertClean(present, animator: "curl-up")
        assertClean(dismiss, animator: "curl-down")
        XCTAssertEqual(present.duration, 0.8)
        XCTAssertTrue(present.last.views.contains { $0.name == "CurlNotes" }, "the presented screen is in the container")
        XCTAssertEqual(run.trace.finalPresented, [])
    }

    /// UIView.transition(from:to:) with .transitionCrossDissolve between two tabs: the old
    /// content dissolves away over the new tab.
    func testCrossDissolveBetweenTabs() throws {
        let run = try Corpus.play("tab-dissolve", self)
        assertExitedCleanly(run)
        let t = run.trace.transitions
        XCTAssertEqual(t.map { "\($0.from)->\($0.to)" }, ["NewsTab->MapTab", "MapTab->NewsTab"])
        for x in t {
            assertClean(x, animator: "cross-dissolve")
            XCTAssertEqual(x.duration, 0.25)
            let fading = x.frames.compactMap { $0.snapshots.first?.alpha }
            XCTAssertEqual(fading.count, x.frames.count, "the old content dissolves as a snapshot in every frame")
            XCTAssertEqual(fading.first ?? .nan, 1, accuracy: 1e-6)
            XCTAssertEqual(fading.last ?? .nan, 0, accuracy: 1e-6)
            assertMonotonic(fading, increasing: false, "the dissolving snapshot's alpha")
            XCTAssertEqual(x.last[x.to]?.alpha ?? .nan, 1, accuracy: 1e-6, "\(x.to) is under it, opaque")
        }
        XCTAssertEqual(run.trace.finalSelected, 0)
    }

    /// UIImageView: the scenario's image views are found with `as? UIImageView`, and a new
    /// UIImageView(image:) with the thumbnail's image flies from the thumbnail's frame to the
    /// photo's (convert(_:to:)) on a spring while the detail screen fades in.
    func testPhotoZoomFliesAnImageViewFromTheThumbnail() throws {
        let run = try Corpus.play("photo-zoom", self)
        assertExitedCleanly(run)
        let push = run.trace.transitions[0]
        assertClean(push, animator: "photo-zoom")
        // The flying image view: the one view that is neither the scenario's nor a snapshot.
        let scenarioViews: Set<String> = ["window", "UINavigationController", "PhotoGrid", "PhotoDetail", "title", "thumbnail", "photo"]
        let flying = push.frames.compactMap { $0.views.first { !scenarioViews.contains($0.name) && !$0.snapshot } }
        XCTAssertEqual(flying.count, push.frames.count, "an image view of the plugin's own in every frame: \(push.first.views.map(\.name))")
        XCTAssertEqual(flying.first?.position, [20 + 48, 100 + 36], "starts on the thumbnail")
        XCTAssertEqual(flying.first?.width ?? .nan, 96, accuracy: 1e-6)
        XCTAssertEqual(flying.last?.x ?? .nan, 160, accuracy: 1)
        XCTAssertEqual(flying.last?.y ?? .nan, 164 + 120, accuracy: 1)
        XCTAssertEqual(flying.last?.width ?? .nan, 320, accuracy: 2, "ends on the photo's frame")
        XCTAssertGreaterThan(flying.map(\.width).max() ?? 0, 320, "damping 0.85 overshoots a little")
        XCTAssertEqual(push.first["thumbnail"]?.hidden, true, "the real image views hide while their copy flies")
        XCTAssertEqual(push.first["photo"]?.hidden, true)
        XCTAssertEqual(push.first["PhotoDetail"]?.alpha ?? .nan, 0, accuracy: 1e-6)
        XCTAssertEqual(push.last["PhotoDetail"]?.alpha ?? .nan, 1, accuracy: 1e-6)
    }

    /// The file that breaks the contract on purpose: it never calls completeTransition. The
    /// host names the breach, recovers, and the run exits 4.
    func testNeverCompletingAnimatorIsReportedAsABreach() throws {
        let run = try Corpus.play("never-completes", self)
        XCTAssertEqual(run.status, 4, "exit 4: an animator broke the transition contract\n\(run.output.stdout)\n\(run.output.stderr)")
        let push = run.trace.transitions[0]
        XCTAssertEqual(push.animator, "\(Corpus.plugin)/never-completes")
        XCTAssertEqual(push.breaches.count, 1, "\(push.breaches)")
        XCTAssertEqual(push.breaches.first?.plugin, Corpus.plugin)
        XCTAssertEqual(push.breaches.first?.kind, "never-completed", "\(push.breaches)")
        XCTAssertEqual(push.track("StuckDetail").last?.alpha ?? .nan, 1, accuracy: 1e-6, "the fade itself ran")
        XCTAssertFalse(run.trace.finalStack.isEmpty, "the host left a consistent stack: \(run.trace.finalStack)")
    }
}
