// snapshot-search — MainTransitioningDelegate of seed 002, in Swift with TransHostAnimatorKit.
//
// Routed only for Home -> CompanySearch (push) and CompanySearch -> Home (pop); every other pair
// gets the host's default, as the seed's delegate returns nil for them.
// - Home -> Search (0.5 s): a snapshot of Home's "searchView" moves from its place to y = 0 while
//   fading out (0.5 s); Home fades out (0.2 s); a snapshot of the search screen fades in (0.25 s
//   after a 0.25 s delay), then the real search view replaces it.
// - Search -> Home reverses it: the search bar's snapshot moves from y = 0 back to Home's search
//   bar (0.5 s), the search screen fades out (0.2 s) and Home's snapshot fades in (0.25 s after
//   0.25 s).
//
// Differences from the seed, on purpose: the moving snapshot is removed at the end (the seed
// leaves it, invisible, in the container); the to-view is added before completeTransition (the
// seed adds it after, which the host reports as to-view-missing); and completeTransition gets
// !transitionWasCancelled instead of YES. The pop's search-bar snapshot starts at y = 0 above
// Home's search bar (x = 16 in the demo) and moves straight down, mirroring the push; the seed
// starts it at x = `frame.origin.x` of the snapshot it just made, which is always 0, so its bar
// slid 16 pt sideways as well, an accident of reading a fresh snapshot's frame.
import UIKit

nonisolated(unsafe) var fadeOutDuration: TimeInterval = 0.2
nonisolated(unsafe) var moveDuration: TimeInterval = 0.5
nonisolated(unsafe) var fadeInDuration: TimeInterval = 0.25
nonisolated(unsafe) var fadeInDelay: TimeInterval = 0.25

@_cdecl("snapshot_search_configure")
public func snapshotSearchConfigure(_ fadeOut: Double, _ move: Double, _ fadeIn: Double, _ delay: Double) {
    fadeOutDuration = fadeOut
    moveDuration = move
    fadeInDuration = fadeIn
    fadeInDelay = delay
}

/// The subview of each screen that is the search bar.
let searchViewName = "searchView"

final class SnapshotSearch: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using ctx: UIViewControllerContextTransitioning?) -> TimeInterval {
        max(moveDuration, fadeInDelay + fadeInDuration, fadeOutDuration)
    }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        if ctx.isPresenting { homeToSearch(ctx) } else { searchToHome(ctx) }
    }

    func homeToSearch(_ ctx: UIViewControllerContextTransitioning) {
        let container = ctx.containerView
        let fromView = ctx.view(forKey: .from)!
        let toView = ctx.view(forKey: .to)!
        guard let searchView = fromView.viewNamed(searchViewName),
              let snapshot = toView.snapshotView(afterScreenUpdates: true),
              let moveView = searchView.snapshotView(afterScreenUpdates: false) else {
            TransHostLog("Home has no subview named \(searchViewName); no animation")
            container.addSubview(toView)
            ctx.completeTransition(!ctx.transitionWasCancelled)
            return
        }
        snapshot.alpha = 0
        let containerBackground = container.backgroundColor
        container.backgroundColor = .white
        container.addSubview(snapshot)
        container.addSubview(moveView)
        moveView.frame = searchView.convert(searchView.bounds, to: container)

        UIView.animate(withDuration: fadeOutDuration, animations: { fromView.alpha = 0 })
        UIView.animate(withDuration: moveDuration, animations: {
            moveView.frame = CGRect(x: moveView.frame.origin.x, y: 0, width: moveView.frame.width, height: moveView.frame.height)
            moveView.alpha = 0
        })
        UIView.animate(withDuration: fadeInDuration, delay: fadeInDelay, options: [], animations: {
            snapshot.alpha = 1
        }, completion: { _ in
            snapshot.removeFromSuperview()
            moveView.removeFromSuperview()
            container.addSubview(toView)
            fromView.alpha = 1
            // A cancelled push leaves Home as it was, the container's colour included.
            if ctx.transitionWasCancelled { container.backgroundColor = containerBackground }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }

    func searchToHome(_ ctx: UIViewControllerContextTransitioning) {
        let container = ctx.containerView
        let fromView = ctx.view(forKey: .from)!
        let toView = ctx.view(forKey: .to)!
        guard let searchView = toView.viewNamed(searchViewName),
              let toSnapshot = toView.snapshotView(afterScreenUpdates: true),
              let fromSnapshot = fromView.snapshotView(afterScreenUpdates: false),
              let moveView = searchView.snapshotView(afterScreenUpdates: true) else {
            TransHostLog("Home has no subview named \(searchViewName); no animation")
            container.addSubview(toView)
            ctx.completeTransition(!ctx.transitionWasCancelled)
            return
        }
        toSnapshot.alpha = 0
        container.addSubview(fromSnapshot)
        container.addSubview(toSnapshot)
        container.addSubview(moveView)
        let home = searchView.convert(searchView.bounds, to: toView)
        moveView.frame = CGRect(x: home.origin.x, y: 0, width: home.width, height: home.height)
        moveView.alpha = 1

        UIView.animate(withDuration: fadeOutDuration, animations: { fromView.alpha = 0 })
        UIView.animate(withDuration: moveDuration, animations: {
            moveView.frame = home
            moveView.alpha = 1
        })
        UIView.animate(withDuration: fadeInDuration, delay: fadeInDelay, options: [], animations: {
            toSnapshot.alpha = 1
        }, completion: { _ in
            toSnapshot.removeFromSuperview()
            fromSnapshot.removeFromSuperview()
            moveView.removeFromSuperview()
            container.addSubview(toView)
            fromView.alpha = 1
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
}
