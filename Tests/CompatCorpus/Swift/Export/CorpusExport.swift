// The corpus plugin's export: the manifest's animator and delegate ids and the objects they name.
// This is the only transhost-specific file of the plugin; the corpus files stay as written for
// UIKit. Animators that take a parameter in their initializer get it here, as the screen that
// creates them would on a device.
import UIKit

@_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
    TransHostExport(
        animators: [
            "crossfade": CrossfadeAnimator.init,
            "slide-left": { SlideAnimator(direction: .left) },
            "slide-right": { SlideAnimator(direction: .right) },
            "spring-present": SpringPresentAnimator.init,
            "bounce-in": { KeyframeBounceAnimator(isPresenting: true) },
            "bounce-out": { KeyframeBounceAnimator(isPresenting: false) },
            "flip-push": FlipTransitionAnimator.init,
            "flip-pop": {
                let flip = FlipTransitionAnimator()
                flip.operation = .pop
                return flip
            },
            "curl-up": { PageCurlAnimator(isPresentation: true) },
            "curl-down": { PageCurlAnimator(isPresentation: false) },
            "bubble-present": BubbleAnimator.init,
            "bubble-dismiss": {
                let bubble = BubbleAnimator()
                bubble.mode = .dismiss
                return bubble
            },
            "sheet-present": { BottomSheetAnimator(type: .presentation) },
            "sheet-dismiss": { BottomSheetAnimator(type: .dismissal) },
            "cross-dissolve": CrossDissolveTabAnimator.init,
            "photo-zoom": PhotoZoomAnimator.init,
            "never-completes": NeverCompletingAnimator.init,
            "circular-reveal": CircularRevealAnimator.init,
            "layer-card": LayerCardAnimator.init,
            "ripple": RippleAnimator.init,
        ],
        delegates: [
            "gallery": GalleryTransitioningDelegate.init,
            "tab-slide": TabBarTransitionDelegate.init,
            "alongside-title": AlongsideTitleFadeDelegate.init,
            "parallax-navigation": NavigationTransitionDelegate.init,
            "modal-sheet": ModalTransitioningDelegate.init,
            "half-sheet": HalfSheetTransitioningDelegate.init,
            "swipe-back": SwipeBackNavigationDelegate.init,
            "seed000-modal": {
                let master = IACMasterTransitions()
                master.animationController = IACModalTransition()
                return master
            },
            "seed000-navigation": {
                let master = IACMasterTransitions()
                master.animationController = IACNavigationTransition()
                return master
            },
            "seed001": FirstViewControllerTransitions.init,
            // Seed 002 assigns its own navigation delegate (HomeController.viewDidLoad).
            "seed002": AssignedDelegates.init,
            "seed004": NavigationControllerDelegate.init,
        ],
        controllers: [HomeController.self, CompanySearchController.self])
}
