import Foundation
import XCTest

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
        XCTAssertEqual(halves.map(\.screenX), [80, 240])
        // Half-way, the first keyframe has landed: each half moved 120 pt out and turned by the
        // seed's 90 (radians) about y.
        let apart = present.frame(at: 0.5).snapshots.filter { abs($0.width - 160) < 1e-6 }
        XCTAssertEqual(apart.map(\.screenX), [-40, 360])
        for half in apart { XCTAssertEqual(half.m11, cos(90.0), accuracy: 1e-6) }
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

    /// Seed 002's MainTransitioningDelegate, assigned to the navigation controller by
    /// HomeController.viewDidLoad as in the seed, decides by class (`isKind(of: HomeController.self)`)
    /// and reads `searchView` from the seed's own controller classes (exported with `controllers:`):
    /// the search box's snapshot rises to the top and fades while the search screen fades in.
    func testSeed002MovesTheSearchBoxToTheTop() throws {
        let run = try Corpus.play("seed002", self)
        let (push, pop) = (run.trace.transitions[0], run.trace.transitions[1])
        XCTAssertEqual(push.animator, "\(Corpus.plugin)/MainTransitioningDelegate", "the delegate recognized its own classes")
        XCTAssertEqual(push.duration, 0.5)
        let box = push.track("snapshot of searchView")
        XCTAssertEqual(box.first?.screenY ?? .nan, 200 + 22, accuracy: 1e-6, "from the search box's frame")
        XCTAssertEqual(box.last?.screenY ?? .nan, 22, accuracy: 1e-6, "to y = 0")
        XCTAssertEqual(box.last?.alpha ?? .nan, 0, accuracy: 1e-6)
        XCTAssertEqual(push.frame(at: 0.2)["HomeController"]?.alpha ?? .nan, 0, accuracy: 1e-6, "Home fades out in 0.2 s")
        XCTAssertEqual(push.frame(at: 0.25).snapshots.first { $0.name == "snapshot of CompanySearchController" }?.alpha ?? .nan, 0, accuracy: 1e-6, "the destination waits 0.25 s")
        // The seed's own bug, kept: it calls completeTransition(true) before it adds the
        // destination view. The host names that, repairs it, and the run exits 4.
        XCTAssertEqual(push.breaches.map(\.kind), ["to-view-missing"], "\(push.breaches)")
        XCTAssertEqual(run.status, 4)
        // The way back is clean: the box comes down from the top to Home's search box.
        assertClean(pop, animator: "MainTransitioningDelegate")
        // (The push's box snapshot is still in the container, transparent: the seed never
        // removes it. The pop's own box is the topmost one.)
        let back = pop.frames.compactMap { $0.views.last { $0.name == "snapshot of searchView" } }
        XCTAssertEqual(back.first?.screenY ?? .nan, 22, accuracy: 1e-6)
        XCTAssertEqual(back.last?.screenY ?? .nan, 200 + 22, accuracy: 1e-6)
        XCTAssertEqual(run.trace.finalStack, ["HomeController"])
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
