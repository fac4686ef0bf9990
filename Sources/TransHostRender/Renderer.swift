import CPixman
import CRenderKernels
import TransHostCore

/// How transformed layers reach pixman. `.automatic` is the renderer's own choice; the other two
/// exist as benchmark floors (they draw the same layers over the same pixel rectangles).
public enum CompositePath: String, Sendable, CaseIterable {
    /// Integer translations untransformed (pixman SRC/OVER blits), pure scales on pixman's
    /// affine bilinear path, rotated or sheared affine layers through CRenderKernels' affine
    /// span loop (incremental source positions, bilinear, only the layer's spans; ~3-4x faster
    /// than pixman's affine path here), and perspective layers through its exact projective
    /// span loop (one division per pixel, bilinear, ~4x faster than pixman's projective path).
    case automatic
    /// As `.automatic`, but perspective layers are cut into tiles, each drawn on pixman's
    /// affine path with an affine approximation of the homography whose error (measured back
    /// in destination pixels) stays below `Renderer.maxTileError`; tiles that cannot meet it
    /// fall back to pixman's projective path. Measured and kept for comparison: under a
    /// perspective rotation the tiles must be small (an affine map cannot follow the
    /// converging edges), so per-call overhead eats the affine path's speed.
    case affineTiles
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
    /// Subtrees (snapshots, translucent or transformed views) flattened into one raster.
    public var groupRasterizations = 0
    /// Rasters (content or flattened) reused from the cache.
    public var cacheHits = 0
    /// pixman composite calls (an affine tile counts once).
    public var compositeCalls = 0
    /// Affine tiles standing in for perspective layers.
    public var affineTiles = 0
    /// Composites on pixman's projective path.
    public var projectiveComposites = 0
    /// Perspective composites through the exact C span loop.
    public var spanComposites = 0
    /// Rotated or sheared affine composites through the C affine span loop.
    public var affineSpanComposites = 0
    /// Destination pixels covered by composite calls.
    public var compositedPixels = 0
    /// Composites (and clears) skipped because a later opaque full-frame blit hides them.
    public var occludedOperations = 0
}

/// Renders presentation trees into RGBA frames.
///
/// Geometry: each layer's bounds space maps into its parent's by Homography(layerToParent:),
/// the flattened (z = 0) CATransform3D, so nested 3D transforms compose as Core Animation's
/// per-layer flattening does; the root's parent space is the screen in points, scaled to pixels.
/// Points with W <= 0 are clipped (a small epsilon above 0, relative to the layer's largest W).
///
/// Content: each view's own look is drawn once by cairo into a raster cached on (view id,
/// contentVersion, look, bounds size, scale). A view with subviews is drawn as one *group*
/// raster when it is a snapshot (isSnapshot), has alpha < 1, or maps to the screen by more
/// than scale + translation; the group raster is cached on the subtree's signature (every
/// descendant's id, contentVersion, presentation state, hidden flag; the group view's own
/// position, transform and alpha excluded), so a snapshot or an unchanged subtree is
/// rasterized once and then only composited. Rasters not used by a frame are dropped after it,
/// so memory follows the current frame's working set.
///
/// Opacity: alpha multiplies down the tree; a view with alpha < 1 and subviews is composited as
/// a group (UIKit's default group opacity since iOS 7: overlapping subviews do not show through
/// each other). Borders are drawn above sublayers, as Core Animation does. Snapshots are
/// clipped to their bounds, as UIKit's are.
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
    private var subtreeEnd: [Int] = []
    /// The frame being rendered and its deferred composites (see render(_:into:)).
    private weak var mainTarget: RGBAImage?
    private var displayList: [(run: () -> Void, coversTarget: Bool)] = []
    /// Subtree signatures of plain views seen last frame (to spot unchanged subtrees).
    private var lastSignatures: [String: (frame: Int, signature: [NodeSignature])] = [:]

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
        mainTarget = target
        displayList = [({ target.fill(self.clearColor) }, true)]
        let screen = Homography.scale(Double(scale), Double(scale))
        for r in roots { visit(r, parentToDest: screen, parentAlpha: 1, clip: .none, target: target) }
        let start = displayList.lastIndex { $0.coversTarget } ?? 0
        stats.occludedOperations += start
        for op in displayList[start...] { op.run() }
        displayList = []
        mainTarget = nil
        lastSignatures = lastSignatures.filter { $0.value.frame == frameNumber }
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
        subtreeEnd = Array(repeating: 0, count: list.count)
        var index: [String: Int] = [:]
        var parent = Array(repeating: -1, count: list.count)
        for (k, n) in list.enumerated() {
            index[n.view.id] = k
            if let p = n.parentID, let pk = index[p] { children[pk].append(k); parent[k] = pk } else { roots.append(k) }
        }
        // Depth-first order: a subtree is the contiguous range k..<subtreeEnd[k].
        for k in stride(from: list.count - 1, through: 0, by: -1) {
            subtreeEnd[k] = max(subtreeEnd[k], k + 1)
            if parent[k] >= 0 { subtreeEnd[parent[k]] = max(subtreeEnd[parent[k]], subtreeEnd[k]) }
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

    private func visit(_ k: Int, parentToDest: Homography, parentAlpha: Double, clip: Clip, target: RGBAImage) {
        let n = nodes[k]
        guard !n.isHidden else { return }
        let s = n.state
        let alpha = parentAlpha * min(max(s.alpha, 0), 1)
        guard alpha * 255 >= 0.5, s.transform.isFinite, s.position.isFinite, s.anchorPoint.isFinite, s.bounds.isFinite else { return }
        let localToDest = Homography(layerToParent: s).then(parentToDest)
        guard localToDest.isFinite else { return }
        if n.view.isStretched(toBounds: s.bounds), Self.usable(s), let g = stretchedRaster(k) {
            composite(g.image, opaque: false, rasterToDest: g.rasterToLocal.then(localToDest), alpha: alpha, clip: clip, target: target)
            return
        }
        if !children[k].isEmpty, Self.usable(s), wantsGroup(k, localToDest) || isStaticPlain(k, localToDest), let g = groupRaster(k) {
            composite(g.image, opaque: g.opaque, rasterToDest: g.rasterToLocal.then(localToDest), alpha: alpha, clip: clip, target: target)
            return
        }
        drawContents(k, localToDest: localToDest, alpha: alpha, clip: clip, target: target)
    }

    /// Whether node k (which has children) is drawn as one group raster: a snapshot, a view
    /// with alpha < 1 (group opacity, UIKit's default since iOS 7), or a view whose map to the
    /// screen is more than a scale-by-`scale` plus translation (its children are then resampled
    /// once, as one flattened plane, as Core Animation flattens them).
    /// A plain view (see wantsGroup) at whole-pixel offsets whose subtree is unchanged since
    /// the previous frame: grouping it changes no pixel (whole-pixel blits) and saves drawing
    /// its subviews again every frame.
    private func isStaticPlain(_ k: Int, _ localToDest: Homography) -> Bool {
        let m = localToDest
        guard m.isAffine, abs(m.g / m.i - (m.g / m.i).rounded()) < 1e-9, abs(m.h / m.i - (m.h / m.i).rounded()) < 1e-9 else { return false }
        let b = nodes[k].state.bounds, sc = Double(scale)
        guard b.minX * sc == (b.minX * sc).rounded(), b.minY * sc == (b.minY * sc).rounded() else { return false }
        let sig = signature(k)
        let id = nodes[k].view.id
        if let e = cache[CacheKey(id: id, kind: .group)], e.signature == sig { return true }
        let prev = lastSignatures[id]
        lastSignatures[id] = (frameNumber, sig)
        return prev?.signature == sig
    }

    private func signature(_ k: Int) -> [NodeSignature] {
        var sig: [NodeSignature] = []
        sig.reserveCapacity(subtreeEnd[k] - k)
        for j in k..<subtreeEnd[k] {
            let m = nodes[j]
            var st = m.state
            if j == k { st.position = .zero; st.anchorPoint = .zero; st.transform = .identity; st.alpha = 1 }
            sig.append(NodeSignature(id: m.view.id, contentVersion: m.view.contentVersion, state: st, hidden: m.isHidden,
                                     content: m.view.content, clips: m.view.clipsToBounds))
        }
        return sig
    }

    private func wantsGroup(_ k: Int, _ localToDest: Homography) -> Bool {
        let n = nodes[k]
        if n.view.isSnapshot || n.state.alpha < 1 { return true }
        let m = localToDest, sc = Double(scale)
        let plain = m.isAffine && abs(m.a / m.i - sc) < 1e-9 && abs(m.e / m.i - sc) < 1e-9 && m.b == 0 && m.d == 0
        return !plain
    }

    /// Own body, children (back to front), then the border above them.
    private func drawContents(_ k: Int, localToDest: Homography, alpha: Double, clip: Clip, target: RGBAImage) {
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
                    visit(c, parentToDest: localToDest, parentAlpha: alpha, clip: childClip, target: target)
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

    struct Group {
        var image: RGBAImage
        var opaque: Bool
        /// Raster pixels -> the group node's bounds space.
        var rasterToLocal: Homography
    }

    static let maxGroupSide = 8192

    /// The subtree under node `k` drawn into one raster, cached while the subtree's signature
    /// (everything but the node's own position, transform and alpha) is unchanged. A snapshot
    /// covers its bounds (UIKit snapshots are clipped to them); another group covers its
    /// bounds and its descendants' (clipped to its bounds when clipsToBounds). nil when the
    /// extent is unreasonable (a descendant reaching W <= 0, or larger than maxGroupSide): the
    /// subtree is then drawn directly.
    private func groupRaster(_ k: Int) -> Group? {
        let n = nodes[k]
        let sig = signature(k)
        let key = CacheKey(id: n.view.id, kind: .group)
        if let e = cache[key], e.signature == sig, e.scale == scale, let g = e.group {
            cache[key]!.lastUsed = frameNumber
            stats.cacheHits += 1
            return g
        }
        let s = n.state
        var ext = (x0: s.bounds.minX, y0: s.bounds.minY, x1: s.bounds.maxX, y1: s.bounds.maxY)
        if !n.view.isSnapshot && !n.view.clipsToBounds {
            var ok = true
            func grow(_ j: Int, _ toGroup: Homography) {
                for c in children[j] where ok && !nodes[c].isHidden {
                    let st = nodes[c].state
                    guard Self.usable(st) || !children[c].isEmpty else { continue }
                    let m = Homography(layerToParent: st).then(toGroup)
                    let b = st.bounds
                    for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.maxX, b.maxY), (b.minX, b.maxY)] {
                        guard m.w(x, y) > 0 else { ok = false; return }
                        let p = m.apply(x, y)
                        ext.x0 = min(ext.x0, p.x); ext.y0 = min(ext.y0, p.y); ext.x1 = max(ext.x1, p.x); ext.y1 = max(ext.y1, p.y)
                    }
                    if !nodes[c].view.clipsToBounds { grow(c, m) }
                }
            }
            grow(k, .identity)
            guard ok else { return nil }
        }
        let sc = Double(scale)
        let px0 = (ext.x0 * sc + 1e-7).rounded(.down), py0 = (ext.y0 * sc + 1e-7).rounded(.down)
        let px1 = (ext.x1 * sc - 1e-7).rounded(.up), py1 = (ext.y1 * sc - 1e-7).rounded(.up)
        guard px0.isFinite, py0.isFinite, px1.isFinite, py1.isFinite,
              px1 - px0 <= Double(Self.maxGroupSide), py1 - py0 <= Double(Self.maxGroupSide) else { return nil }
        let img = RGBAImage(width: max(Int(px1 - px0), 1), height: max(Int(py1 - py0), 1))
        let localToRaster = Homography.translation(-px0 / sc, -py0 / sc).then(.scale(sc, sc))
        drawContents(k, localToDest: localToRaster, alpha: 1, clip: .none, target: img)
        stats.groupRasterizations += 1
        // Opaque when the node's own opaque background covers the whole raster.
        let opaque = ContentRasterizer.isOpaque(look(k), scale: scale) && px0 == (s.bounds.minX * sc) && py0 == (s.bounds.minY * sc)
            && px1 == (s.bounds.maxX * sc) && py1 == (s.bounds.maxY * sc)
        let g = Group(image: img, opaque: opaque, rasterToLocal: Homography.scale(1 / sc, 1 / sc).then(.translation(px0 / sc, py0 / sc)))
        cache[key] = CacheEntry(image: img, contentVersion: n.view.contentVersion, look: look(k), scale: scale, signature: sig,
                                opaque: opaque, lastUsed: frameNumber, group: g)
        return g
    }

    /// A resizable snapshot shown at another size: its subtree drawn at the size it was taken at
    /// (cached like any group), then stretched by its cap insets (cached per size).
    private func stretchedRaster(_ k: Int) -> Group? {
        let n = nodes[k], s = n.state
        guard let natural = n.view.resizableSize, natural.width > 0, natural.height > 0 else { return nil }
        var taken = s
        taken.bounds = Rect(x: s.bounds.minX, y: s.bounds.minY, width: natural.width, height: natural.height)
        nodes[k] = n.with(state: taken)
        defer { nodes[k] = n }
        guard let g = groupRaster(k) else { return nil }
        let sig = signature(k)
        let key = CacheKey(id: n.view.id, kind: .stretched)
        let size = Size(width: s.bounds.width, height: s.bounds.height)
        if let e = cache[key], e.signature == sig, e.scale == scale, e.stretchedSize == size, let cached = e.group {
            cache[key]!.lastUsed = frameNumber
            stats.cacheHits += 1
            return cached
        }
        let img = NineSlice.stretch(g.image, natural: natural, to: size, insets: n.view.capInsets, scale: scale)
        let sc = Double(scale)
        let stretched = Group(image: img, opaque: false,
                              rasterToLocal: Homography.scale(1 / sc, 1 / sc).then(.translation(s.bounds.minX, s.bounds.minY)))
        cache[key] = CacheEntry(image: img, contentVersion: n.view.contentVersion, look: look(k), scale: scale, signature: sig,
                                opaque: false, lastUsed: frameNumber, group: stretched, stretchedSize: size)
        return stretched
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
        let isTranslation = h.isAffine && h.a == 1 && h.b == 0 && h.d == 0 && h.e == 1
            && abs(h.g - h.g.rounded()) < 1e-9 && abs(h.h - h.h.rounded()) < 1e-9
        let work = { [self] in
            compositeNow(src, opaque: opaque, h: h, inv: inv, dest: dest, box: box, needMask: needMask,
                         isTranslation: isTranslation, alpha: alpha, target: target)
        }
        if target === mainTarget {
            // Deferred: a later opaque full-frame blit makes everything before it invisible.
            let covers = opaque && alpha >= 1 && !needMask && box == canvas && compositePath != .pixmanProjective
                && (isTranslation || (h.isAffine && Self.interiorCovers(inv, src: src, canvas: canvas)))
            displayList.append((work, covers))
        } else {
            work()
        }
    }

    /// Whether every destination pixel of `canvas` samples the source's interior under the
    /// affine destination->source map `inv` (a bilinear footprint at least half a texel inside
    /// each edge), so an opaque source paints every one of them opaquely. The canvas is convex
    /// and the map affine: its four corners decide.
    static func interiorCovers(_ inv: Homography, src: RGBAImage, canvas: PixelRect) -> Bool {
        let sw = Double(src.width), sh = Double(src.height)
        for (x, y) in [(canvas.x0, canvas.y0), (canvas.x1, canvas.y0), (canvas.x1, canvas.y1), (canvas.x0, canvas.y1)] {
            let p = inv.apply(Double(x), Double(y))
            guard p.x >= 1, p.y >= 1, p.x <= sw - 1, p.y <= sh - 1 else { return false }
        }
        return true
    }

    private func compositeNow(_ src: RGBAImage, opaque: Bool, h: Homography, inv: Homography, dest: [Vec2], box: PixelRect,
                              needMask: Bool, isTranslation: Bool, alpha: Double, target: RGBAImage) {
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
            if h.isAffine && !Self.usesAffineSpans(h) {
                draw(src, map: inv, rect: box, projective: false, mask: mask, maskOrigin: maskOrigin, target: target)
            } else if h.isAffine {
                affineSpans(src, opaque: opaque, map: inv, rect: box, polygonMask: needMask ? mask : nil, maskOrigin: maskOrigin,
                            alpha: alpha, target: target)
            } else {
                spans(src, map: inv, rect: box, polygonMask: needMask ? mask : nil, maskOrigin: maskOrigin, alpha: alpha, target: target)
            }
        case .affineTiles:
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

    /// Exact projective composite with the C span loop (see th_composite_projective_bilinear).
    private func spans(_ src: RGBAImage, map: Homography, rect: PixelRect, polygonMask: OpaquePointer?,
                       maskOrigin: (x: Int, y: Int), alpha: Double, target: RGBAImage) {
        var m = [map.a, map.d, map.g, map.b, map.e, map.h, map.c, map.f, map.i]
        let a: UInt32 = polygonMask != nil ? 256 : UInt32((min(max(alpha, 0), 1) * 256).rounded())
        var maskPtr: UnsafePointer<UInt8>? = nil
        var maskStride = 0
        if let pm = polygonMask {
            maskStride = Int(pixman_image_get_stride(pm))
            let base = UnsafeRawPointer(pixman_image_get_data(pm)!)
            maskPtr = (base + (rect.y0 - maskOrigin.y) * maskStride + (rect.x0 - maskOrigin.x)).assumingMemoryBound(to: UInt8.self)
        }
        th_composite_projective_bilinear(src.data.assumingMemoryBound(to: UInt32.self), src.stride, Int32(src.width), Int32(src.height),
                                         target.data.assumingMemoryBound(to: UInt32.self), target.stride,
                                         Int32(rect.x0), Int32(rect.y0), Int32(rect.x1), Int32(rect.y1),
                                         &m, maskPtr, maskStride, a)
        count(rect)
        stats.spanComposites += 1
    }

    /// Whether an affine layer goes through the C affine span loop rather than pixman: maps
    /// that rotate or shear. Pure scales (plus translation) stay on pixman, whose scaled
    /// bilinear paths are fast.
    static func usesAffineSpans(_ h: Homography) -> Bool {
        h.isAffine && (h.b != 0 || h.d != 0)
    }

    /// Affine composite with the C span loop (see th_composite_affine_bilinear).
    private func affineSpans(_ src: RGBAImage, opaque: Bool, map: Homography, rect: PixelRect, polygonMask: OpaquePointer?,
                             maskOrigin: (x: Int, y: Int), alpha: Double, target: RGBAImage) {
        let k = 1 / map.i
        var m = [map.a * k, map.d * k, map.g * k, map.b * k, map.e * k, map.h * k]
        let a: UInt32 = polygonMask != nil ? 256 : UInt32((min(max(alpha, 0), 1) * 256).rounded())
        var maskPtr: UnsafePointer<UInt8>? = nil
        var maskStride = 0
        if let pm = polygonMask {
            maskStride = Int(pixman_image_get_stride(pm))
            let base = UnsafeRawPointer(pixman_image_get_data(pm)!)
            maskPtr = (base + (rect.y0 - maskOrigin.y) * maskStride + (rect.x0 - maskOrigin.x)).assumingMemoryBound(to: UInt8.self)
        }
        th_composite_affine_bilinear(src.data.assumingMemoryBound(to: UInt32.self), src.stride, Int32(src.width), Int32(src.height),
                                     target.data.assumingMemoryBound(to: UInt32.self), target.stride,
                                     Int32(rect.x0), Int32(rect.y0), Int32(rect.x1), Int32(rect.y1),
                                     &m, maskPtr, maskStride, a, opaque ? 1 : 0)
        count(rect)
        stats.affineSpanComposites += 1
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
