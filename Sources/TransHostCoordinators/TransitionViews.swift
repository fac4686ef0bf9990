import TransHostCore

/// Which views a transition moves and who hears appearance callbacks, when that is not simply
/// "the from- and to-controller's views, both appearing and disappearing" (presentations that
/// keep the presenter's view in place, chain dismissals).
public struct TransitionViews {
    /// view(forKey: .from) / .to; nil where UIKit's is nil.
    public var from: View?
    public var to: View?
    /// Whether the from- / to-controller (and its shown descendants) get appearance callbacks:
    /// false for a presenter whose view stays on screen.
    public var fromAppears = true
    public var toAppears = true
    /// Controllers that leave with the transition without being animated (the middle of a
    /// dismissed presentation chain): they disappear with the from-controller.
    public var alsoDisappearing: [ViewController] = []
    public init(from: View?, to: View?, fromAppears: Bool = true, toAppears: Bool = true, alsoDisappearing: [ViewController] = []) {
        self.from = from; self.to = to; self.fromAppears = fromAppears; self.toAppears = toAppears; self.alsoDisappearing = alsoDisappearing
    }
}
