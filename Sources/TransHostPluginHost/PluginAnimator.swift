import CTransHost
import TransHostCore
import TransHostCoordinators
import TransHostManifest

/// A plugin's animator seen as a TransitionAnimator: every call goes through the C ABI with
/// the plugin named as the one responsible for what happens during it.
final class PluginAnimator: TransitionAnimator {
    let plugin: LoadedPlugin
    let animatorID: String
    let animator: UnsafePointer<th_animator>
    let bridge: HostBridge
    /// The delegate that vended this animator (delegate routes), and the interaction controller
    /// it gave for this transition: its start_interactive_transition replaces animate_transition.
    var delegate: UnsafePointer<th_delegate>?
    var interaction: UnsafePointer<th_interaction>?

    init(plugin: LoadedPlugin, animatorID: String, animator: UnsafePointer<th_animator>, bridge: HostBridge) {
        self.plugin = plugin; self.animatorID = animatorID; self.animator = animator; self.bridge = bridge
    }

    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: plugin.name, id: animatorID) }

    func transitionDuration(_ context: TransitionContext) -> Double {
        let ctx = bridge.handles.handle(for: context)
        return bridge.calling(plugin.name, "transition_duration") { animator.pointee.transition_duration(animator, ctx) }
    }

    func animateTransition(_ context: TransitionContext) {
        let ctx = bridge.handles.handle(for: context)
        if let interaction, let start = interaction.pointee.start_interactive_transition {
            bridge.calling(plugin.name, "start_interactive_transition") { start(interaction, ctx, animator) }
            return
        }
        bridge.calling(plugin.name, "animate_transition") { animator.pointee.animate_transition(animator, ctx) }
    }

    /// ABI 1.3: th_animator.interruptible_animator, when the plugin's struct has it.
    func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator? {
        let end = MemoryLayout<th_animator>.offset(of: \th_animator.interruptible_animator)! + MemoryLayout<UnsafeRawPointer>.size
        guard animator.pointee.struct_size >= UInt32(end), let ask = animator.pointee.interruptible_animator else { return nil }
        let ctx = bridge.handles.handle(for: context)
        let h = bridge.calling(plugin.name, "interruptible_animator") { ask(animator, ctx) }
        guard let h else { return nil }
        guard let pa = bridge.handles.object(h, as: PropertyAnimator.self) else {
            bridge.breachHandler(ContractBreach(plugin: plugin.name, kind: "invalid-handle",
                message: "interruptible_animator returned \(h), which is not a property animator handle; the transition plays without one"))
            return nil
        }
        return pa
    }

    func animationEnded(_ transitionCompleted: Bool) {
        guard let ended = animator.pointee.animation_ended else { return }
        bridge.calling(plugin.name, "animation_ended") { ended(animator, transitionCompleted ? 1 : 0) }
    }
}
