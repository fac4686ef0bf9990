import TransHostCore

/// UIModalPresentationStyle, with UIKit's raw values (the ABI's `controller_presentation_style`
/// reports them). The sheet, form-sheet and popover styles are not modelled.
public enum ModalPresentationStyle: Int, CaseIterable, Sendable {
    case fullScreen = 0
    case currentContext = 3
    case custom = 4
    case overFullScreen = 5
    case overCurrentContext = 6

    /// The scenario's spelling (`"overFullScreen"`, ...): UIKit's case names.
    public var name: String {
        switch self {
        case .fullScreen: return "fullScreen"
        case .currentContext: return "currentContext"
        case .custom: return "custom"
        case .overFullScreen: return "overFullScreen"
        case .overCurrentContext: return "overCurrentContext"
        }
    }

    public init?(name: String) {
        guard let s = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = s
    }

    /// Whether the presentation covers the controller that defines the presentation context
    /// (walking up from the source) rather than the whole window.
    public var isContextBased: Bool { self == .currentContext || self == .overCurrentContext }
}

/// UIPresentationController: every presentation goes through one, as in UIKit. It decides
/// where the presented view goes (`containerView`, `frameOfPresentedViewInContainerView`),
/// which view stands for the presented controller (`presentedView`, a wrapper if it likes),
/// and whether the presenter's view leaves the window once the presentation completes
/// (`shouldRemovePresentersView`). Subclasses override the transition hooks to add chrome
/// (a dimming view) and take it away again.
///
/// The host calls, for a presentation: `presentationTransitionWillBegin`, then
/// `containerViewWillLayoutSubviews`, then the animator's animateTransition; when the
/// transition ends, `presentationTransitionDidEnd(completed)` (false after a cancel: the
/// controller is then dropped). For the dismissal the same with the dismissal hooks, on the
/// controller that presented it. `containerView` is set before the first hook.
///
/// The defaults are UIKit's for the built-in styles: the presented view fills the container;
/// full screen and current context remove the presenter's view, the `over` styles and custom
/// keep it (a custom controller says otherwise by overriding `shouldRemovePresentersView`).
open class PresentationController {
    public let presentedViewController: ViewController
    public let presentingViewController: ViewController
    /// The controller the presentation was asked of (the presenting one may be an ancestor).
    public let sourceViewController: ViewController
    public let presentationStyle: ModalPresentationStyle
    /// The view the presentation happens in: the window, or for the current-context styles the
    /// view of the controller that defines the context. Set by the host before the first hook.
    public internal(set) var containerView: View?

    public init(presentedViewController: ViewController, presenting: ViewController, source: ViewController,
                style: ModalPresentationStyle) {
        self.presentedViewController = presentedViewController
        self.presentingViewController = presenting
        self.sourceViewController = source
        self.presentationStyle = style
    }

    /// The view animated in and out for the presented controller (its own view by default).
    open var presentedView: View? { presentedViewController.view }

    /// Where the presented view ends up: the container's bounds by default.
    open var frameOfPresentedViewInContainerView: Rect { containerView?.bounds ?? .zero }

    /// true for full screen and current context (the presenter's view leaves once covered);
    /// false for the `over` styles and custom (it stays and shows through).
    open var shouldRemovePresentersView: Bool {
        presentationStyle == .fullScreen || presentationStyle == .currentContext
    }

    /// The chrome: views the presentation hooks added to the container for the presentation (a
    /// dimming view), besides the presented view. They belong to the presentation controller and
    /// may stay in the window while it presents, as in UIKit; the dismissal takes them away.
    /// Recorded by the modal coordinator around the hooks.
    public internal(set) var chromeViews: [View] = []
    /// The presented controller's final frame in its present's context, as asked when the
    /// present began (a plugin's controller may not be asked after its dismissal).
    public internal(set) var finalFrameOfPresentedView: Rect?

    open func presentationTransitionWillBegin() {}
    open func presentationTransitionDidEnd(_ completed: Bool) {}
    open func dismissalTransitionWillBegin() {}
    open func dismissalTransitionDidEnd(_ completed: Bool) {}
    open func containerViewWillLayoutSubviews() {}
}

/// Vends the presentation controller for each presentation: the seam through which a
/// transitioning delegate (a plugin's `presentationController(forPresented:presenting:source:)`)
/// takes over how a presentation is laid out.
///
/// The modal coordinator asks its provider once per presentation, after it has settled the
/// style and the presenting controller and before it asks for an animator; the controller it
/// returns then serves that presentation and, later, its dismissal. A provider returns nil to
/// get the host's controller for the style (`PresentationController` itself, whose defaults are
/// UIKit's). UIKit consults the transitioning delegate only for `.custom`; a provider backed by
/// plugins should do the same and return nil for the other styles.
public protocol PresentationControllerProvider: AnyObject {
    func presentationController(forPresented presented: ViewController, presenting: ViewController,
                                source: ViewController, style: ModalPresentationStyle) -> PresentationController?
}
