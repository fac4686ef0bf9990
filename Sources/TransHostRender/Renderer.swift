import CPixman
import CRenderKernels
import TransHostCore

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
/// clipsToBounds: children are clipped to the parent's transformed bounds, rounded by its
/// corner radius (see RoundedOutline). When the clip is an axis-aligned rectangle it only
/// narrows the composited pixel rectangle (rounded to whole pixels); otherwise (a radius,
/// rotation, perspective) the clip is the convex projected outline, intersected with the
/// ancestors' clips, rasterized with antialiasing into an A8 mask. The same mask handles layers
/// clipped at W = 0.
///
/// A view's layer sample (PresentationNode.layers) adds sublayers, drawn between its content
/// and its subviews (Renderer+Layers), a mask and a shadow (Renderer+ViewLayers,
/// Renderer+Shadow), a sublayerTransform for its children (LayerGeometry), zPosition order
/// among siblings and back-face culling; a view without one is drawn exactly as before.
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
    /// Whether stats.rasterizeNanoseconds is measured (benchmarks).
    public var timesRasterization = false
    public internal(set) var stats = RenderStats()
    /// Raster bytes the cache may hold before a group, once drawn, lets go of the rasters it
    /// was drawn from (see releaseInside).
    public var rasterCacheBytes = 24 << 20
    /// Image paths that could not be loaded.
    public var imageLoadFailures: [String] { images.failures }

    private let images = ImageCache()
    var cache: [CacheKey: CacheEntry] = [:]
    var frameNumber = 0

    // Per-frame tree.
    var nodes: [PresentationNode] = []
    var children: [[Int]] = []
    var subtreeEnd: [Int] = []
    /// Each node's parent index, -1 for a root.
    var parent: [Int] = []
    /// The pixel of each opaque background colour (see uniformColor).
    var uniformColors: [Color: UInt32] = [:]
    /// Groups drawn this frame by what they show (see sharedGroup).
    var frameGroups: [(key: [ContentNode], group: Group)] = []
    /// The frame being rendered and its deferred composites (see render(_:into:)).
    weak var mainTarget: RGBAImage?
    var displayList: [DisplayOp] = []
    /// Whether the target passed to render(_:into:) keeps the last frame drawn into it until
    /// the next call (nothing else writes its pixels): only what changed is then drawn again
    /// (see Renderer+Damage). The bytes are those of a full frame either way.
    public var reusesTargetPixels = false
    /// The rectangle the last render(_:into:) drew: the whole frame, or with
    /// reusesTargetPixels only the damage (.empty when no pixel changed). Outside it the
    /// target holds the previous frame's pixels, which are this frame's too.
    public internal(set) var lastDamage = PixelRect.empty
    var lastFrame: LastFrame?
    /// The damage while the display list runs clipped to it (cairo drawing clips to it too).
    var damageClip: PixelRect?
    /// Whether an operation skips the pixels later ones overwrite whole (see runClearingLess);
    /// tests turn it off to compare with every operation drawn whole.
    var culls = true
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
        displayList = [DisplayOp(run: { self.clear(target) }, coversTarget: true, box: canvasRect(target), key: .clear(clearColor),
                                 clippable: true, source: nil)]
        let screen = Homography.scale(Double(scale), Double(scale))
        for r in roots { visit(r, parentToDest: screen, parentAlpha: 1, clip: .none, target: target) }
        runDisplayList(into: target)
        displayList = []
        mainTarget = nil
        lastSignatures = lastSignatures.filter { $0.value.frame == frameNumber }
        cache = cache.filter { $0.value.lastUsed == frameNumber }
        self.nodes = []
        children = []
        frameGroups = []
    }

    // MARK: Tree

    private var roots: [Int] = []

    private func buildTree(_ list: [PresentationNode]) {
        nodes = list
        children = Array(repeating: [], count: list.count)
        roots = []
        subtreeEnd = Array(repeating: 0, count: list.count)
        var index: [String: Int] = [:]
        parent = Array(repeating: -1, count: list.count)
        for (k, n) in list.enumerated() {
            index[n.view.id] = k
            if let p = n.parentID, let pk = index[p] { children[pk].append(k); parent[k] = pk } else { roots.append(k) }
        }
        for pk in children.indices where children[pk].count > 1 { children[pk] = zOrdered(children[pk]) }
        // Depth-first order: a subtree is the contiguous range k..<subtreeEnd[k].
        for k in stride(from: list.count - 1, through: 0, by: -1) {
            subtreeEnd[k] = max(subtreeEnd[k], k + 1)
            if parent[k] >= 0 { subtreeEnd[parent[k]] = max(subtreeEnd[parent[k]], subtreeEnd[k]) }
        }
    }

    func look(_ k: Int) -> ContentRasterizer.Look {
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

    private func visit(_ k: Int, parentToDest: Homography, frame: SublayerFrame? = nil, parentAlpha: Double, clip: Clip, target: RGBAImage) {
        let n = nodes[k]
        guard !n.isHidden else { return }
        let s = n.state
        let alpha = parentAlpha * min(max(s.alpha, 0), 1)
        guard alpha * 255 >= 0.5, s.transform.isFinite, s.position.isFinite, s.anchorPoint.isFinite, s.bounds.isFinite else { return }
        let localToDest = LayerGeometry.toParent(s, in: frame).then(parentToDest)
        guard localToDest.isFinite else { return }
        if let layers = n.layers {
            if !layers.style.isDoubleSided && LayerGeometry.facesAway(localToDest) { return }
            if layers.style.shadow.isVisible, Self.usable(s) { paintViewShadow(k, localToDest: localToDest, alpha: alpha, clip: clip, target: target) }
        }
        if n.view.isStretched(toBounds: s.bounds), Self.usable(s), let g = stretchedRaster(k) {
            composite(g.image, opaque: false, rasterToDest: g.rasterToLocal.then(localToDest), alpha: alpha, clip: clip, target: target)
            return
        }
        let masked = n.layers?.mask != nil
        if !children[k].isEmpty || masked || hasSublayers(k), Self.usable(s), masked || wantsGroup(k, localToDest) || isStaticPlain(k, localToDest),
           let g = groupRaster(k) {
            let (shown, extent) = masked ? maskedToShow(k, g, localToDest: localToDest) : (g, nil)
            composite(shown.image, opaque: shown.opaque, rasterToDest: shown.rasterToLocal.then(localToDest), alpha: alpha, clip: clip,
                      target: target, masking: extent)
            return
        }
        if masked { return } // a masked view too large for one raster is not drawn unmasked
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
        let hasChildren = !children[k].isEmpty || hasSublayers(k)
        let rasterToDest = rasterToLocal(s).then(localToDest)
        body: if Self.usable(s) {
            let part: ContentRasterizer.Part = hasChildren ? .body : .all
            if ContentRasterizer.draws(lk, part) {
                let (pw, ph) = ContentRasterizer.pixelSize(lk, scale: scale)
                if let c = uniformColor(lk, part),
                   compositeUniform(c, width: pw, height: ph, rasterToDest: rasterToDest, alpha: alpha, clip: clip, target: target) {
                    break body
                }
                let img = contentRaster(k, lk, part)
                composite(img, opaque: ContentRasterizer.isOpaque(lk, scale: scale), rasterToDest: rasterToDest, alpha: alpha, clip: clip, target: target)
            }
        }
        if hasChildren {
            var childClip = clip
            if n.view.clipsToBounds {
                childClip = clip.intersecting(quad: clipOutline(s, localToDest), canvas: canvasRect(target))
            }
            if !childClip.isEmpty {
                let frame = SublayerFrame(n.layers?.style, bounds: s.bounds, anchorPoint: s.anchorPoint)
                // Sublayers of the view's layer draw above its own content, below its subviews.
                if let layers = n.layers {
                    for l in layers.sublayersInDrawingOrder {
                        paintLayer(l, parentToDest: localToDest, frame: frame, alpha: alpha, clip: childClip, target: target)
                    }
                }
                for c in children[k] {
                    visit(c, parentToDest: localToDest, frame: frame, parentAlpha: alpha, clip: childClip, target: target)
                }
            }
            if Self.usable(s) && ContentRasterizer.draws(lk, .border) {
                let img = contentRaster(k, lk, .border)
                composite(img, opaque: false, rasterToDest: rasterToDest, alpha: alpha, clip: clip, target: target)
            }
        }
    }

    func canvasRect(_ t: RGBAImage) -> PixelRect { PixelRect(x0: 0, y0: 0, x1: t.width, y1: t.height) }

    /// The layer's clip outline (bounds, rounded by its corner radius) in destination pixels,
    /// clipped where W <= 0.
    private func clipOutline(_ s: PresentationState, _ localToDest: Homography) -> [Vec2] {
        clipOutline(bounds: s.bounds, cornerRadius: s.cornerRadius, localToDest)
    }

    func clipOutline(bounds b: Rect, cornerRadius: Double, _ localToDest: Homography) -> [Vec2] {
        let r = RoundedOutline.effectiveRadius(bounds: b, cornerRadius: cornerRadius)
        let n = r > 0 ? RoundedOutline.segments(radius: r, bounds: b, localToDest: localToDest) : 0
        var poly = RoundedOutline.local(b, radius: r, segmentsPerCorner: n)
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
        // A stale raster goes before its replacement is drawn, not after (see releaseInside).
        cache[key] = nil
        let t0 = timesRasterization ? StageClock.nanoseconds() : 0
        let img = ContentRasterizer.rasterize(lk, part: part, scale: scale, images: images)
        if timesRasterization { stats.rasterizeNanoseconds += StageClock.nanoseconds() - t0 }
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
    func groupRaster(_ k: Int) -> Group? {
        let n = nodes[k]
        let sig = signature(k)
        let key = CacheKey(id: n.view.id, kind: .group)
        if let e = cache[key], e.signature == sig, e.scale == scale, let g = e.group {
            cache[key]!.lastUsed = frameNumber
            stats.cacheHits += 1
            return g
        }
        cache[key] = nil
        let s = n.state
        var ext = (x0: s.bounds.minX, y0: s.bounds.minY, x1: s.bounds.maxX, y1: s.bounds.maxY)
        if !n.view.isSnapshot && !n.view.clipsToBounds {
            var ok = true
            func grow(_ j: Int, _ toGroup: Homography) {
                let js = nodes[j].state
                let frame = SublayerFrame(nodes[j].layers?.style, bounds: js.bounds, anchorPoint: js.anchorPoint)
                for l in nodes[j].layers?.sublayers ?? [] where ok && !l.state.isHidden {
                    let (e, bounded) = LayerGeometry.extent(l)
                    guard bounded else { ok = false; return }
                    guard let e else { continue }
                    guard let b = LayerGeometry.mappedBox(e, LayerGeometry.toParent(l.state, in: frame).then(toGroup)) else { ok = false; return }
                    ext.x0 = min(ext.x0, b.minX); ext.y0 = min(ext.y0, b.minY); ext.x1 = max(ext.x1, b.maxX); ext.y1 = max(ext.y1, b.maxY)
                }
                for c in children[j] where ok && !nodes[c].isHidden {
                    let st = nodes[c].state
                    guard Self.usable(st) || !children[c].isEmpty || nodes[c].layers != nil else { continue }
                    let m = LayerGeometry.toParent(st, in: frame).then(toGroup)
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
        let width = max(Int(px1 - px0), 1), height = max(Int(py1 - py0), 1)
        let localToRaster = Homography.translation(-px0 / sc, -py0 / sc).then(.scale(sc, sc))
        let rasterToLocal = Homography.scale(1 / sc, 1 / sc).then(.translation(px0 / sc, py0 / sc))
        let content = contentKey(k)
        if let g = sharedGroup(content, rasterToLocal: rasterToLocal) {
            stats.sharedGroupRasters += 1
            cache[key] = CacheEntry(image: g.image, contentVersion: n.view.contentVersion, look: look(k), scale: scale, signature: sig,
                                    opaque: g.opaque, lastUsed: frameNumber, group: g)
            return g
        }
        let wholePixels = px0 == s.bounds.minX * sc && py0 == s.bounds.minY * sc && px1 == s.bounds.maxX * sc && py1 == s.bounds.maxY * sc
        // Opaque when the node's own opaque background covers the whole raster.
        let opaque = ContentRasterizer.isOpaque(look(k), scale: scale) && wholePixels
        let img: RGBAImage
        if let shared = coveringChildRaster(k, localToRaster: localToRaster, width: width, height: height, wholePixels: wholePixels) {
            img = shared
            stats.sharedGroupRasters += 1
        } else {
            // That background is drawn first, over every pixel (a fill, or a copy of an opaque
            // raster, at whole pixels), so an opaque group's memory is not cleared before.
            img = RGBAImage(width: width, height: height, zeroed: !(opaque && Self.usable(s) && compositePath != .pixmanProjective))
            drawContents(k, localToDest: localToRaster, alpha: 1, clip: .none, target: img)
        }
        stats.groupRasterizations += 1
        releaseInside(k)
        let g = Group(image: img, opaque: opaque, rasterToLocal: rasterToLocal)
        frameGroups.append((content, g))
        cache[key] = CacheEntry(image: img, contentVersion: n.view.contentVersion, look: look(k), scale: scale, signature: sig,
                                opaque: opaque, lastUsed: frameNumber, group: g)
        return g
    }
}
