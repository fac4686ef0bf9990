/// Edge insets (UIEdgeInsets).
public struct EdgeInsets: Equatable, Hashable, Sendable {
    public var top, left, bottom, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

extension View {
    /// snapshotView(afterScreenUpdates:): a new view showing a frozen copy of this view's subtree.
    ///
    /// The copy is deep and independent: later changes to the source never change it. With
    /// `afterScreenUpdates` true it shows the model values (the state after pending changes are
    /// drawn); with false, the presentation values on screen right now. The snapshot's frame is
    /// (0, 0, bounds.width, bounds.height) and it carries no transform or alpha of the source's
    /// own, like UIKit's.
    public func snapshotView(afterScreenUpdates: Bool) -> View {
        let root = frozenCopy(afterScreenUpdates: afterScreenUpdates, isRoot: true)
        root.name = "snapshot of \(name.isEmpty ? id : name)"
        return root
    }

    /// resizableSnapshotView(from:afterScreenUpdates:withCapInsets:): a snapshot of the part of
    /// this view inside `rect` (in this view's bounds coordinates), of size rect.size.
    /// Cap insets are recorded for renderers that stretch the snapshot; transhost draws the
    /// snapshot at its own size, where they have no effect.
    public func resizableSnapshotView(from rect: Rect, afterScreenUpdates: Bool, withCapInsets capInsets: EdgeInsets) -> View {
        let inner = frozenCopy(afterScreenUpdates: afterScreenUpdates, isRoot: true)
        let crop = View(engine: engine, frame: Rect(x: 0, y: 0, width: rect.width, height: rect.height),
                        name: "snapshot of \(name.isEmpty ? id : name) in \(Int(rect.minX)),\(Int(rect.minY)) \(Int(rect.width))x\(Int(rect.height))")
        crop.clipsToBounds = true
        crop.isSnapshot = true
        crop.capInsets = capInsets
        inner.position = Point(x: inner.position.x - rect.minX, y: inner.position.y - rect.minY)
        crop.addSubview(inner)
        return crop
    }

    private func frozenCopy(afterScreenUpdates: Bool, isRoot: Bool) -> View {
        let state: PresentationState = afterScreenUpdates
            ? modelState
            : engine.presentation(of: self)
        let copy = View(engine: engine, name: name)
        copy.isSnapshot = true
        copy.model.bounds = state.bounds
        copy.model.backgroundColor = state.backgroundColor
        copy.model.cornerRadius = state.cornerRadius
        copy.content = content
        copy.clipsToBounds = clipsToBounds
        if isRoot {
            copy.model.position = Point(x: state.bounds.width / 2, y: state.bounds.height / 2)
        } else {
            copy.model.position = state.position
            copy.model.anchorPoint = state.anchorPoint
            copy.model.transform = state.transform
            copy.model.alpha = state.alpha
            copy.isHidden = isHidden
        }
        for s in subviews {
            copy.addSubview(s.frozenCopy(afterScreenUpdates: afterScreenUpdates, isRoot: false))
        }
        return copy
    }
}
