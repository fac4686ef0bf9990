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
