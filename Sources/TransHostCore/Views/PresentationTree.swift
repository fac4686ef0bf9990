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

    public init(view: View, parentID: String?, z: Int, depth: Int, state: PresentationState, isHidden: Bool) {
        self.view = view; self.parentID = parentID; self.z = z; self.depth = depth; self.state = state; self.isHidden = isHidden
    }
}

extension AnimationEngine {
    /// The presentation tree under `root` (included) in painting order: depth-first, parents
    /// before children, children back to front.
    public func sampleTree(_ root: View) -> [PresentationNode] {
        var out: [PresentationNode] = []
        func visit(_ v: View, parent: String?, z: Int, depth: Int) {
            out.append(PresentationNode(view: v, parentID: parent, z: z, depth: depth, state: presentation(of: v), isHidden: v.isHidden))
            for (i, s) in v.subviews.enumerated() { visit(s, parent: v.id, z: i, depth: depth + 1) }
        }
        visit(root, parent: nil, z: 0, depth: 0)
        return out
    }
}
