/// What a frame keeps of a view besides its presentation values: its identity and what it draws,
/// as they were at the sampled instant. A value, so frames can be kept, compared and sent
/// elsewhere (a worker process) without the live view.
public struct SampledView: Hashable, Sendable {
    public let id: String
    public let name: String
    public let content: ViewContent
    /// Changes whenever the content, clipping, background or radius does (raster cache key).
    public let contentVersion: Int
    public let clipsToBounds: Bool
    public let isSnapshot: Bool

    public init(_ v: View) {
        id = v.id; name = v.name; content = v.content; contentVersion = v.contentVersion
        clipsToBounds = v.clipsToBounds; isSnapshot = v.isSnapshot
    }

    /// A view as another process sampled it (a playback worker's frames, decoded).
    public init(id: String, name: String, content: ViewContent, contentVersion: Int, clipsToBounds: Bool, isSnapshot: Bool) {
        self.id = id; self.name = name; self.content = content; self.contentVersion = contentVersion
        self.clipsToBounds = clipsToBounds; self.isSnapshot = isSnapshot
    }
}

/// One view as the screen shows it at one instant: what traces record and renderers draw.
public struct PresentationNode: Equatable, Sendable {
    /// The view as it was at that instant (its model values are not used).
    public let view: SampledView
    public let parentID: String?
    /// Index among the parent's subviews (0 is at the back).
    public let z: Int
    /// Depth in the tree (the root is 0).
    public let depth: Int
    public let state: PresentationState
    public let isHidden: Bool

    public init(view: SampledView, parentID: String?, z: Int, depth: Int, state: PresentationState, isHidden: Bool) {
        self.view = view; self.parentID = parentID; self.z = z; self.depth = depth; self.state = state; self.isHidden = isHidden
    }
}

extension AnimationEngine {
    /// The presentation tree under `root` (included) in painting order: depth-first, parents
    /// before children, children back to front.
    public func sampleTree(_ root: View) -> [PresentationNode] {
        var out: [PresentationNode] = []
        func visit(_ v: View, parent: String?, z: Int, depth: Int) {
            out.append(PresentationNode(view: SampledView(v), parentID: parent, z: z, depth: depth, state: presentation(of: v), isHidden: v.isHidden))
            for (i, s) in v.subviews.enumerated() { visit(s, parent: v.id, z: i, depth: depth + 1) }
        }
        visit(root, parent: nil, z: 0, depth: 0)
        return out
    }
}
