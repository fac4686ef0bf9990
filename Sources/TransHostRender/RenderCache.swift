import TransHostCore

// The renderer's raster cache keys and entries, and the clip regions children draw in.
struct CacheKey: Hashable {
    enum Kind: Hashable { case body, border, all, group, stretched }
    var id: String
    var kind: Kind
}

struct NodeSignature: Equatable {
    var id: String
    var contentVersion: Int
    var state: PresentationState
    var hidden: Bool
    var content: ViewContent
    var clips: Bool
    /// The view layer's sublayers and style (nil for a plain view).
    var layers: LayerTreeSample?
}

struct CacheEntry {
    var image: RGBAImage
    var contentVersion: Int
    var look: ContentRasterizer.Look
    var scale: Int
    var signature: [NodeSignature]
    var opaque: Bool
    var lastUsed: Int
    var group: Renderer.Group? = nil
    var stretchedSize: Size? = nil
}

/// The region children may draw in, in destination pixels.
enum Clip: Equatable {
    case none
    case rect(PixelRect)
    /// A convex polygon (rotated or projected bounds, intersected with the ancestors' clips).
    case polygon([Vec2])

    var isEmpty: Bool {
        switch self {
        case .none: return false
        case .rect(let r): return r.isEmpty
        case .polygon(let p): return p.count < 3
        }
    }

    func intersecting(quad: [Vec2], canvas: PixelRect) -> Clip {
        let q = Polygon.clip(quad, toRect: canvas)
        guard q.count >= 3 else { return .rect(.empty) }
        if let (x0, y0, x1, y1) = Polygon.axisAlignedRect(q) {
            let r = PixelRect(x0: Int(x0.rounded()), y0: Int(y0.rounded()), x1: Int(x1.rounded()), y1: Int(y1.rounded()))
            switch self {
            case .none: return .rect(r.intersection(canvas))
            case .rect(let o): return .rect(r.intersection(o))
            case .polygon(let p): return .polygon(Polygon.clip(p, toRect: r))
            }
        }
        switch self {
        case .none: return .polygon(q)
        case .rect(let o): return .polygon(Polygon.clip(q, toRect: o))
        case .polygon(let p): return .polygon(Polygon.intersect(q, p))
        }
    }
}
