#if canImport(Glibc)
import Glibc
#endif

/// Counters since the renderer was made.
public struct RenderStats: Equatable, Sendable {
    public var frames = 0
    /// Content rasters drawn with cairo (background, image, text, border).
    public var contentRasterizations = 0
    /// Subtrees (snapshots, translucent or transformed views) flattened into one raster.
    public var groupRasterizations = 0
    /// Groups that are the pixels of their only child's group (a snapshot of a view, a crop of
    /// a snapshot), shared instead of copied.
    public var sharedGroupRasters = 0
    /// Groups that let go of the rasters they were drawn from (the cache was over its budget).
    public var releasedGroupInputs = 0
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
    /// Layers moved by a fraction of a pixel, drawn by th_composite_translate_bilinear (with
    /// pixman's bytes) instead of pixman.
    public var translateComposites = 0
    /// Scaled layers (or faded ones: a solid mask) drawn by th_composite_scaled_bilinear, with
    /// pixman's bytes, instead of pixman.
    public var scaledComposites = 0
    /// Destination pixels covered by composite calls.
    public var compositedPixels = 0
    /// Composites (and clears) skipped because a later opaque full-frame blit hides them.
    public var occludedOperations = 0
    /// Target pixels drawn (the damage with Renderer.reusesTargetPixels, else every frame's).
    public var damagedPixels = 0
    /// Target pixels set by a frame's first clear or background fill (not those later
    /// operations overwrite whole).
    public var backgroundPixels = 0
    /// Target pixels the later operations skipped because operations after them overwrite
    /// those pixels whole (the part of a page that the page above it hides).
    public var culledPixels = 0
    /// Wall time spent drawing content with cairo, when the renderer's `timesRasterization`
    /// is set (benchmarks split a frame's cost with it; nothing depends on it).
    public var rasterizeNanoseconds: UInt64 = 0
}

/// A monotonic wall clock for benchmarks that split a pipeline into its stages. Measuring only:
/// no picture or trace depends on it.
public enum StageClock {
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
