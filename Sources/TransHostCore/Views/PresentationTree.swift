/// One view as the screen shows it at one instant: what traces record and renderers draw.
public struct PresentationNode {
    /// The view (for its content, clipping and snapshot flag; its model values are not used).
    public let view: View
    public let parentID: String?
    /// Index among the parent's subviews (0 is at the back).
    public let z: Int
    /// Depth in the tree (the root is 0).
    public let depth: Int
    public let state: PresentationState
    public let isHidden: Bool
}

extension AnimationEngine {
    /// The presentation tree under `root` (included) in painting order: depth-first, parents
    /// before children, children back to front.
    public func sampleTree(_ root: View) -> [PresentationNode] {
        var out: [PresentationNode] = []
        // An explicit stack (children pushed front to back, so they pop back to front).
        var stack: [(view: View, parent: String?, z: Int, depth: Int)] = [(root, nil, 0, 0)]
        while let (v, parent, z, depth) = stack.popLast() {
            out.append(PresentationNode(view: v, parentID: parent, z: z, depth: depth, state: presentation(of: v), isHidden: v.isHidden))
            for (i, s) in v.subviews.enumerated().reversed() { stack.append((s, v.id, i, depth + 1)) }
        }
        return out
    }
}
