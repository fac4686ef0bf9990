import UIKit

/// Moves a sheet between just below the bottom edge and the frame the transition gives it: up
/// when it is presented, down and away when it is dismissed.
final class BottomSheetAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    enum TransitionType {
        case presentation
        case dismissal
    }

    let type: TransitionType
    let duration: TimeInterval

    init(type: TransitionType, duration: TimeInterval = 0.45) {
        self.type = type
        self.duration = duration
        super.init()
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return duration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        let appearing = type == .presentation
        guard let sheet = transitionContext.viewController(forKey: appearing ? .to : .from) else { return }
        let sheetView: UIView = sheet.view

        // UIKit gives a dismissed controller a zero final frame, so the dismissal starts from
        // where the sheet is now.
        let shown = appearing ? transitionContext.finalFrame(for: sheet) : transitionContext.initialFrame(for: sheet)
        let hidden = shown.offsetBy(dx: 0, dy: containerView.frame.height)

        if appearing {
            containerView.addSubview(sheetView)
        } else if let presentingView = transitionContext.view(forKey: .to) {
            containerView.insertSubview(presentingView, belowSubview: sheetView)
        }
        sheetView.frame = appearing ? hidden : shown
        sheetView.layer.cornerRadius = 12
        sheetView.layer.masksToBounds = true

        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, options: .curveEaseOut, animations: {
            sheetView.frame = appearing ? shown : hidden
        }, completion: { finished in
            let cancelled = transitionContext.transitionWasCancelled
            if !appearing && !cancelled {
                sheetView.removeFromSuperview()
            }
            transitionContext.completeTransition(finished && !cancelled)
        })
    }
}
