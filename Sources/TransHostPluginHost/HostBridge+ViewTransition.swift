import CTransHost
import TransHostCore

/// UIView.transition(with:duration:options:animations:completion:) on the host: the block's
/// changes apply at once, and the chosen style plays between pictures of the view taken before
/// and after them.
///
/// - cross-dissolve: the "before" picture lies over the view and fades out.
/// - flip (left/right/top/bottom): the view turns about its vertical (horizontal) axis with
///   perspective (m34 = -1/1000): the first half shows the old picture turning to edge-on
///   (ease-in), the second half the new content turning back from edge-on (ease-out).
/// - curl up/down: the renderer has no page curl; the old picture lifts about its top edge
///   towards the viewer (curl up), or the new picture falls from its top edge over the old one
///   (curl down), with perspective, each fading as it goes.
/// The completion runs once, after the whole duration (and the delay).
extension HostBridge {
    static let flipPerspective = -1.0 / 1000

    /// A rotation seen through the flip's perspective (CATransform3DRotate of a transform whose
    /// m34 is the perspective).
    static func perspectiveRotation(_ angle: Double, _ x: Double, _ y: Double) -> Transform3D {
        var perspective = Transform3D.identity
        perspective.m34 = flipPerspective
        return Transform3D.rotation(angle, x, y, 0).concatenating(perspective)
    }

    func playViewTransition(_ view: View, _ p: AnimationParameters, _ animations: th_animations_fn?,
                            _ completion: th_completion_fn?, _ user: UnsafeMutableRawPointer?) {
        let plugin = currentPlugin
        let style = p.options & UInt32(TH_ANIM_TRANSITION_MASK)
        let curveBits = p.options & UInt32(TH_ANIM_CURVE_MASK)
        let before = view.snapshotView(afterScreenUpdates: false)
        if let animations { calling(plugin, "its transition animations block") { animations(user) } }
        var completed = false
        let done: (Bool) -> Void = { [weak self] finished in
            guard let self, !completed else { return }
            completed = true
            if let completion { self.calling(plugin, "its completion block") { completion(finished ? 1 : 0, user) } }
        }
        func block(_ duration: Double, _ delay: Double, _ bits: UInt32, _ changes: () -> Void, _ end: @escaping (Bool) -> Void) {
            engine.animate(AnimationParameters(duration: duration, delay: delay, options: bits), animations: changes, completion: end)
        }
        let d = p.duration
        guard d > 0, style != 0 else {
            // No style (or no time): the changes are already on screen; only the completion waits.
            engine.schedule(at: engine.now + p.delay + d) { done(true) }
            return
        }
        func cover(_ snap: View) {
            snap.frame = view.bounds
            view.addSubview(snap)
        }
        switch style {
        case UInt32(TH_ANIM_TRANSITION_CROSS_DISSOLVE):
            cover(before)
            block(d, p.delay, curveBits, { before.alpha = 0 }) { finished in before.removeFromSuperview(); done(finished) }
        case UInt32(TH_ANIM_TRANSITION_FLIP_FROM_LEFT), UInt32(TH_ANIM_TRANSITION_FLIP_FROM_RIGHT),
             UInt32(TH_ANIM_TRANSITION_FLIP_FROM_TOP), UInt32(TH_ANIM_TRANSITION_FLIP_FROM_BOTTOM):
            let vertical = style == UInt32(TH_ANIM_TRANSITION_FLIP_FROM_TOP) || style == UInt32(TH_ANIM_TRANSITION_FLIP_FROM_BOTTOM)
            let sign: Double = style == UInt32(TH_ANIM_TRANSITION_FLIP_FROM_LEFT) || style == UInt32(TH_ANIM_TRANSITION_FLIP_FROM_TOP) ? 1 : -1
            let original = view.transform3D
            func turned(_ angle: Double) -> Transform3D {
                original.concatenating(Self.perspectiveRotation(angle, vertical ? 1 : 0, vertical ? 0 : 1))
            }
            cover(before)
            block(d / 2, p.delay, UInt32(TH_ANIM_CURVE_EASE_IN), { view.transform3D = turned(sign * .pi / 2) }) { [weak self] finished in
                before.removeFromSuperview()
                view.transform3D = turned(-sign * .pi / 2)
                guard let self else { return }
                self.engine.animate(AnimationParameters(duration: d / 2, options: UInt32(TH_ANIM_CURVE_EASE_OUT)),
                                    animations: { view.transform3D = original }, completion: { done(finished && $0) })
            }
        default:  // curl up / curl down
            let up = style == UInt32(TH_ANIM_TRANSITION_CURL_UP)
            let page = up ? before : view.snapshotView(afterScreenUpdates: true)
            if !up { cover(before) }
            cover(page)
            page.anchorPoint = Point(x: 0.5, y: 0)
            page.center = Point(x: view.bounds.width / 2, y: 0)
            let lifted = Self.perspectiveRotation(.pi / 2, 1, 0)
            if !up { page.transform3D = lifted; page.alpha = 0 }
            block(d, p.delay, curveBits, {
                page.transform3D = up ? lifted : .identity
                page.alpha = up ? 0 : 1
            }) { finished in
                page.removeFromSuperview()
                before.removeFromSuperview()
                done(finished)
            }
        }
    }
}
