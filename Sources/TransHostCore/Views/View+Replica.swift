/// What a renderer or a trace reads of a view that was played in another process (a playback
/// worker): its id, name, look and the version its raster caches key on.
public struct ViewLook: Equatable, Sendable {
    public var id: String
    public var name: String
    public var isSnapshot: Bool
    public var contentVersion: Int
    public var clipsToBounds: Bool
    public var content: ViewContent
    public var capInsets: EdgeInsets
    public init(id: String, name: String, isSnapshot: Bool, contentVersion: Int, clipsToBounds: Bool, content: ViewContent, capInsets: EdgeInsets) {
        self.id = id; self.name = name; self.isSnapshot = isSnapshot; self.contentVersion = contentVersion
        self.clipsToBounds = clipsToBounds; self.content = content; self.capInsets = capInsets
    }
}

extension View {
    /// This view's look as a value (to send it to another process).
    public var look: ViewLook {
        ViewLook(id: id, name: name, isSnapshot: isSnapshot, contentVersion: contentVersion, clipsToBounds: clipsToBounds,
                 content: content, capInsets: capInsets)
    }

    /// A stand-in for a view that lived in another process: the same id and look, no animations.
    /// The supervisor of a playback worker rebuilds the views of a trace with it, so rendering
    /// and trace writing see exactly what the worker's views held.
    public static func replica(of look: ViewLook, engine: AnimationEngine) -> View {
        let v = View(engine: engine, id: look.id, name: look.name)
        v.isSnapshot = look.isSnapshot
        v.clipsToBounds = look.clipsToBounds
        v.content = look.content
        v.capInsets = look.capInsets
        // Set last: the setters above bump it.
        v.contentVersion = look.contentVersion
        return v
    }
}
