import CPixman
import TransHostCore

/// How transformed layers reach pixman. `.automatic` is the renderer's own choice; the other two
/// exist as benchmark floors (they draw the same layers over the same pixel rectangles).
public enum CompositePath: String, Sendable, CaseIterable {
    /// Integer translations untransformed, affine maps on pixman's affine bilinear path, and
    /// perspective layers cut into tiles, each drawn with an affine approximation of the
    /// homography whose error (measured back in destination pixels) stays below
    /// `Renderer.maxTileError`; tiles that cannot meet it fall back to pixman's projective path.
    case automatic
    /// Every transformed layer on pixman's projective path (bounding box of the projected quad).
    case pixmanProjective
    /// Every layer on pixman's affine path: perspective layers use one affine fit over their
    /// bounding box, which is *not* a correct picture, only a cost floor.
    case pixmanAffine
}

/// Counters since the renderer was made.
public struct RenderStats: Equatable, Sendable {
    public var frames = 0
    /// Content rasters drawn with cairo (background, image, text, border).
    public var contentRasterizations = 0
    /// Snapshot subtrees flattened into one raster.
    public var snapshotFlattenings = 0
    /// Rasters (content or flattened) reused from the cache.
    public var cacheHits = 0
    /// pixman composite calls (an affine tile counts once).
    public var compositeCalls = 0
    /// Affine tiles standing in for perspective layers.
    public var affineTiles = 0
    /// Composites on pixman's projective path.
    public var projectiveComposites = 0
    /// Destination pixels covered by composite calls.
    public var compositedPixels = 0
}

/// Renders presentation trees into RGBA frames.
///
/// Geometry: each layer's bounds space maps into its parent's by Homography(layerToParent:),
/// the flattened (z = 0) CATransform3D, so nested 3D transforms compose as Core Animation's
/// per-layer flattening does; the root's parent space is the screen in points, scaled to pixels.
/// Points with W <= 0 are clipped (a small epsilon above 0, relative to the layer's largest W).
///
/// Content: each view's own look is drawn once by cairo into a raster cached on (view id,
/// contentVersion, look, bounds size, scale); a snapshot view (isSnapshot) whose parent is not
/// a snapshot has its whole subtree flattened once into a raster of its bounds size (clipped to
/// its bounds, as UIKit snapshots are) and is then only composited. Rasters not used by a frame
/// are dropped after it, so memory follows the current frame's working set.
///
/// Opacity: alpha multiplies down the tree (each layer composited with the product of its
/// ancestors' alphas); a flattened snapshot gets true group opacity. Borders are drawn above
/// sublayers, as Core Animation does.
///
/// clipsToBounds: children are clipped to the parent's transformed bounds *rectangle* (not its
/// rounded corners). When the clip is an axis-aligned rectangle it only narrows the composited
/// pixel rectangle (rounded to whole pixels); otherwise (rotation, perspective) the clip is the
/// convex projected quad, intersected with the ancestors' clips, rasterized with antialiasing
/// into an A8 mask. The same mask handles layers clipped at W = 0.
public final class Renderer {
    public let pointSize: Size
    public let scale: Int
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// What shows where no view draws (a UIWindow with no background shows black).
    public var clearColor: Color = .black
    public var compositePath: CompositePath = .automatic
    /// Largest error of an affine tile, in destination pixels, sampled on a 5x5 grid of each
    /// tile (the tests check the dense error stays below 0.5 px).
    public var maxTileError = 0.25
    public private(set) var stats = RenderStats()
    /// Image paths that could not be loaded.
    public var imageLoadFailures: [String] { images.failures }

    private let images = ImageCache()
    private var cache: [CacheKey: CacheEntry] = [:]
    private var frameNumber = 0

    // Per-frame tree.
    private var nodes: [PresentationNode] = []
    private var children: [[Int]] = []

    public init(pointSize: Size, scale: Int) {
        precondition(scale >= 1 && scale <= 3, "scale must be 1, 2 or 3")
        self.pointSize = pointSize
        self.scale = scale
        pixelWidth = max(Int((pointSize.width * Double(scale)).rounded()), 1)
        pixelHeight = max(Int((pointSize.height * Double(scale)).rounded()), 1)
    }

    /// Renders into a new image of pixelWidth x pixelHeight.
    public func render(_ nodes: [PresentationNode]) -> RGBAImage {
        let image = RGBAImage(width: pixelWidth, height: pixelHeight)
        render(nodes, into: image)
        return image
    }

    /// Renders into `target` (reused across frames to save allocations).
    public func render(_ nodes: [PresentationNode], into target: RGBAImage) {
        precondition(target.width == pixelWidth && target.height == pixelHeight, "target size differs from the renderer's")
        frameNumber += 1
        stats.frames += 1
        buildTree(nodes)
        target.fill(clearColor)
        let screen = Homography.scale(Double(scale), Double(scale))
        for r in roots { visit(r, parentToDest: screen, parentAlpha: 1, clip: .none, target: target, flattening: false) }
        cache = cache.filter { $0.value.lastUsed == frameNumber }
        self.nodes = []
        children = []
    }

    // MARK: Tree

    private var roots: [Int] = []

    private func buildTree(_ list: [PresentationNode]) {
        nodes = list
        children = Array(repeating: [], count: list.count)
        roots = []
        var index: [String: Int] = [:]
        for (k, n) in list.enumerated() {
            index[n.view.id] = k
            if let p = n.parentID, let pk = index[p] { children[pk].append(k) } else { roots.append(k) }
        }
    }

    private func look(_ k: Int) -> ContentRasterizer.Look {
        let n = nodes[k]
        return ContentRasterizer.Look(width: n.state.bounds.width, height: n.state.bounds.height,
                                      backgroundColor: n.state.backgroundColor, cornerRadius: n.state.cornerRadius,
                                      content: n.view.content, clipsToBounds: n.view.clipsToBounds)
    }

    private static func usable(_ s: PresentationState) -> Bool {
        s.bounds.isFinite && s.position.isFinite && s.anchorPoint.isFinite && s.transform.isFinite && s.alpha.isFinite
            && s.bounds.width > 0 && s.bounds.height > 0
    }

    /// Maps a layer's raster pixels to its bounds space.
    private func rasterToLocal(_ s: PresentationState) -> Homography {
        Homography.scale(1 / Double(scale), 1 / Double(scale)).then(.translation(s.bounds.minX, s.bounds.minY))
    }

    // MARK: Traversal

    private func visit(_ k: Int, parentToDest: Homography, parentAlpha: Double, clip: Clip, target: RGBAImage, flattening: Bool) {
        let n = nodes[k]
        guard !n.isHidden else { return }
        let s = n.state
        let alpha = parentAlpha * min(max(s.alpha, 0), 1)
        guard alpha * 255 >= 0.5, s.transform.isFinite, s.position.isFinite, s.anchorPoint.isFinite, s.bounds.isFinite else { return }
        let localToDest = Homography(layerToParent: s).then(parentToDest)
        guard localToDest.isFinite else { return }
        if !flattening && n.view.isSnapshot && Self.usable(s) {
            let (img, opaque) = flattenedRaster(k)
            composite(img, opaque: opaque, rasterToDest: rasterToLocal(s).then(localToDest), alpha: alpha, clip: clip, target: target)
            return
        }
        drawContents(k, localToDest: localToDest, alpha: alpha, clip: clip, target: target, flattening: flattening)
    }

    /// Own body, children (back to front), then the border above them.
    private func drawContents(_ k: Int, localToDest: Homography, alpha: Double, clip: Clip, target: RGBAImage, flattening: Bool) {
        let n = nodes[k]
        let s = n.state
        let lk = look(k)
        let hasChildren = !children[k].isEmpty
        let rasterToDest = rasterToLocal(s).then(localToDest)
        if Self.usable(s) {
            let part: ContentRasterizer.Part = hasChildren ? .body : .all
            if ContentRasterizer.draws(lk, part) {
                let img = contentRaster(k, lk, part)
                composite(img, opaque: ContentRasterizer.isOpaque(lk, scale: scale), rasterToDest: rasterToDest, alpha: alpha, clip: clip, target: target)
            }
        }
        if hasChildren {
            var childClip = clip
            if n.view.clipsToBounds {
                childClip = clip.intersecting(quad: boundsQuad(s, localToDest), canvas: canvasRect(target))
            }
            if !childClip.isEmpty {
                for c in children[k] {
                    visit(c, parentToDest: localToDest, parentAlpha: alpha, clip: childClip, target: target, flattening: flattening)
                }
            }
            if Self.usable(s) && ContentRasterizer.draws(lk, .border) {
                let img = contentRaster(k, lk, .border)
                composite(img, opaque: false, rasterToDest: rasterToDest, alpha: alpha, clip: clip, target: target)
            }
        }
    }

    private func canvasRect(_ t: RGBAImage) -> PixelRect { PixelRect(x0: 0, y0: 0, x1: t.width, y1: t.height) }

    /// The layer's bounds rectangle in destination pixels, clipped where W <= 0.
    private func boundsQuad(_ s: PresentationState, _ localToDest: Homography) -> [Vec2] {
        let b = s.bounds
        var poly = [Vec2(b.minX, b.minY), Vec2(b.maxX, b.minY), Vec2(b.maxX, b.maxY), Vec2(b.minX, b.maxY)]
        if !localToDest.isAffine {
            let wmax = poly.map { localToDest.w($0.x, $0.y) }.max()!
            guard wmax > 0 else { return [] }
            poly = Polygon.clip(poly) { localToDest.w($0.x, $0.y) - wmax * Self.wEpsilon }
        }
        return poly.map(localToDest.apply)
    }

    static let wEpsilon = 1e-3

    // MARK: Rasters

    private func contentRaster(_ k: Int, _ lk: ContentRasterizer.Look, _ part: ContentRasterizer.Part) -> RGBAImage {
        let n = nodes[k]
        let key = CacheKey(id: n.view.id, kind: part == .border ? .border : (part == .all ? .all : .body))
        if let e = cache[key], e.contentVersion == n.view.contentVersion, e.look == lk, e.scale == scale {
            cache[key]!.lastUsed = frameNumber
            stats.cacheHits += 1
            return e.image
        }
        let img = ContentRasterizer.rasterize(lk, part: part, scale: scale, images: images)
        stats.contentRasterizations += 1
        cache[key] = CacheEntry(image: img, contentVersion: n.view.contentVersion, look: lk, scale: scale, signature: [], opaque: false, lastUsed: frameNumber)
        return img
    }

    /// The subtree under snapshot node `k` drawn into one raster of its bounds size.
    private func flattenedRaster(_ k: Int) -> (RGBAImage, Bool) {
        let n = nodes[k]
        var sig: [NodeSignature] = []
        func collect(_ j: Int, root: Bool) {
            let m = nodes[j]
            var st = m.state
            if root { st.position = .zero; st.anchorPoint = .zero; st.transform = .identity; st.alpha = 1 }
            sig.append(NodeSignature(id: m.view.id, contentVersion: m.view.contentVersion, state: st, hidden: m.isHidden,
                                     content: m.view.content, clips: m.view.clipsToBounds))
            for c in children[j] { collect(c, root: false) }
        }
        collect(k, root: true)
        let lk = look(k)
        let key = CacheKey(id: n.view.id, kind: .flattened)
        if let e = cache[key], e.signature == sig, e.scale == scale {
            cache[key]!.lastUsed = frameNumber
            stats.cacheHits += 1
            return (e.image, e.opaque)
        }
        let (pw, ph) = ContentRasterizer.pixelSize(lk, scale: scale)
        let img = RGBAImage(width: pw, height: ph)
        let s = n.state
        let rootToDest = Homography.translation(-s.bounds.minX, -s.bounds.minY).then(.scale(Double(scale), Double(scale)))
        drawContents(k, localToDest: rootToDest, alpha: 1, clip: .none, target: img, flattening: true)
        stats.snapshotFlattenings += 1
        // Opaque when the snapshot's own background covers it (children draw over it).
        let opaque = ContentRasterizer.isOpaque(lk, scale: scale)
        cache[key] = CacheEntry(image: img, contentVersion: n.view.contentVersion, look: lk, scale: scale, signature: sig, opaque: opaque, lastUsed: frameNumber)
        return (img, opaque)
    }

    // MARK: Compositing

    /// Composites `src` (premultiplied) OVER `target` through the raster->destination map.
    private func composite(_ src: RGBAImage, opaque: Bool, rasterToDest h0: Homography, alpha: Double, clip: Clip, target: RGBAImage) {
        var h = h0
        if h.isAffine {
            let k = 1 / h.i
            h = Homography(a: h.a * k, b: h.b * k, c: 0, d: h.d * k, e: h.e * k, f: 0, g: h.g * k, h: h.h * k, i: 1)
        }
        let sw = Double(src.width), sh = Double(src.height)
        var poly = [Vec2(0, 0), Vec2(sw, 0), Vec2(sw, sh), Vec2(0, sh)]
        var needMask = false
        if !h.isAffine {
            let ws = poly.map { h.w($0.x, $0.y) }
            let wmax = ws.max()!
            guard wmax > 0 else { return }
            if ws.min()! <= wmax * Self.wEpsilon {
                poly = Polygon.clip(poly) { h.w($0.x, $0.y) - wmax * Self.wEpsilon }
                needMask = true
            }
        }
        let canvas = canvasRect(target)
        var dest = Polygon.clip(poly.map(h.apply), toRect: canvas)
        switch clip {
        case .none: break
        case .rect(let r): dest = Polygon.clip(dest, toRect: r)
        case .polygon(let p):
            dest = Polygon.intersect(dest, p)
            needMask = true
        }
        guard dest.count >= 3 else { return }
        let box = Polygon.bounds(dest).intersection(canvas)
        guard !box.isEmpty, let inv = h.inverse else { return }

        // The mask: the clipped polygon (antialiased) times alpha, or a solid alpha, or none.
        var mask: OpaquePointer? = nil
        var maskOrigin = (x: 0, y: 0)
        if needMask {
            mask = polygonMask(dest, box: box, alpha: alpha)
            maskOrigin = (box.x0, box.y0)
        } else if alpha < 1 {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((alpha * 65535).rounded()))
            mask = pixman_image_create_solid_fill(&c)
        }
        defer { if let m = mask { pixman_image_unref(m) } }

        let isTranslation = h.isAffine && h.a == 1 && h.b == 0 && h.d == 0 && h.e == 1
            && abs(h.g - h.g.rounded()) < 1e-9 && abs(h.h - h.h.rounded()) < 1e-9
        if isTranslation && compositePath != .pixmanProjective {
            pixman_image_set_transform(src.pixman, nil)
            pixman_image_set_filter(src.pixman, PIXMAN_FILTER_NEAREST, nil, 0)
            let op = (opaque && mask == nil) ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
            let tx = Int(h.g.rounded()), ty = Int(h.h.rounded())
            pixman_image_composite32(op, src.pixman, mask, target.pixman, Int32(box.x0 - tx), Int32(box.y0 - ty),
                                     Int32(box.x0 - maskOrigin.x), Int32(box.y0 - maskOrigin.y),
                                     Int32(box.x0), Int32(box.y0), Int32(box.width), Int32(box.height))
            count(box)
            return
        }
        pixman_image_set_filter(src.pixman, PIXMAN_FILTER_BILINEAR, nil, 0)
        switch compositePath {
        case .pixmanProjective:
            draw(src, map: inv, rect: box, projective: true, mask: mask, maskOrigin: maskOrigin, target: target)
        case .pixmanAffine:
            let a = h.isAffine ? inv : ProjectiveTiler.affineFit(inv, box)
            draw(src, map: a, rect: box, projective: false, mask: mask, maskOrigin: maskOrigin, target: target)
        case .automatic:
            if h.isAffine {
                draw(src, map: inv, rect: box, projective: false, mask: mask, maskOrigin: maskOrigin, target: target)
            } else {
                for t in ProjectiveTiler.tiles(inverse: inv, forward: h, rect: box, maxError: maxTileError) {
                    if let a = t.affine {
                        stats.affineTiles += 1
                        draw(src, map: a, rect: t.rect, projective: false, mask: mask, maskOrigin: maskOrigin, target: target)
                    } else {
                        draw(src, map: inv, rect: t.rect, projective: true, mask: mask, maskOrigin: maskOrigin, target: target)
                    }
                }
            }
        }
    }

    private func count(_ r: PixelRect) {
        stats.compositeCalls += 1
        stats.compositedPixels += r.area
    }

    /// One pixman call over `rect` with the destination->source map `map`, expressed relative
    /// to the rectangle's origin so the 16.16 entries stay small.
    private func draw(_ src: RGBAImage, map: Homography, rect: PixelRect, projective: Bool, mask: OpaquePointer?,
                      maskOrigin: (x: Int, y: Int), target: RGBAImage) {
        var t = Homography.translation(Double(rect.x0), Double(rect.y0)).then(map).pixmanTransform(forcingProjective: projective)
        pixman_image_set_transform(src.pixman, &t)
        if projective { stats.projectiveComposites += 1 }
        pixman_image_composite32(PIXMAN_OP_OVER, src.pixman, mask, target.pixman, 0, 0,
                                 Int32(rect.x0 - maskOrigin.x), Int32(rect.y0 - maskOrigin.y),
                                 Int32(rect.x0), Int32(rect.y0), Int32(rect.width), Int32(rect.height))
        count(rect)
    }

    /// An A8 image of `box`'s size with the convex polygon's antialiased coverage times alpha.
    private func polygonMask(_ poly: [Vec2], box: PixelRect, alpha: Double) -> OpaquePointer {
        let m = pixman_image_create_bits(PIXMAN_a8, Int32(box.width), Int32(box.height), nil, 0)!
        func fx(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        var tris: [pixman_triangle_t] = []
        for j in 1..<(poly.count - 1) {
            let p0 = poly[0], p1 = poly[j], p2 = poly[j + 1]
            tris.append(pixman_triangle_t(p1: pixman_point_fixed_t(x: fx(p0.x), y: fx(p0.y)),
                                          p2: pixman_point_fixed_t(x: fx(p1.x), y: fx(p1.y)),
                                          p3: pixman_point_fixed_t(x: fx(p2.x), y: fx(p2.y))))
        }
        pixman_add_triangles(m, Int32(-box.x0), Int32(-box.y0), Int32(tris.count), tris)
        if alpha < 1 {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((alpha * 65535).rounded()))
            let solid = pixman_image_create_solid_fill(&c)!
            pixman_image_composite32(PIXMAN_OP_IN, solid, nil, m, 0, 0, 0, 0, 0, 0, Int32(box.width), Int32(box.height))
            pixman_image_unref(solid)
        }
        return m
    }
}

// MARK: - Cache and clip types

struct CacheKey: Hashable {
    enum Kind: Hashable { case body, border, all, flattened }
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
}

struct CacheEntry {
    var image: RGBAImage
    var contentVersion: Int
    var look: ContentRasterizer.Look
    var scale: Int
    var signature: [NodeSignature]
    var opaque: Bool
    var lastUsed: Int
}

/// The region children may draw in, in destination pixels.
enum Clip {
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
