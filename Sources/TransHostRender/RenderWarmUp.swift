import CCairo
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore

/// One-time costs of a run's first transitions, paid ahead on a thread of its own while the
/// run's scenarios are still being played, when the cores that will render have nothing to do
/// (a run renders a scenario only once it is played):
/// - cairo's first label makes fontconfig read the system's font configuration (some sixty
///   files) and opens the font files;
/// - a transition's first frame-sized rasters (its frame, its GIF's shown frame, full-screen
///   content and groups) would be fresh mappings, whose pages the kernel clears on the rendering
///   core (RasterMemory.prefill maps them here instead).
///
/// Nothing here changes a picture: labels select the same fonts either way, and a prefilled
/// mapping is zeroed memory like a fresh one.
public final class RenderWarmUp: @unchecked Sendable {
    private var thread: pthread_t?
    /// Set by `renderingBegins`, read by the warm-up thread between mappings.
    private let begun = Atomic<Bool>(false)
    let pointSize: Size
    let scale: Int
    let rasters: Int

    /// Starts warming up for pictures of a `pointSize` screen at `scale`, with `rasters`
    /// frame-sized rasters mapped ahead, as far as RasterMemory's budget allows (by default as
    /// many as it holds: a transition takes four or so at once, its frame, its GIF's, and
    /// full-screen content and groups, and at @2x two transitions render at once). When the
    /// thread cannot start, nothing is warmed: the first transitions pay as they always did.
    public static func start(pointSize: Size, scale: Int, rasters: Int = .max) -> RenderWarmUp {
        let warmUp = RenderWarmUp(pointSize: pointSize, scale: scale, rasters: rasters)
        warmUp.thread = RenderThread.start { warmUp.run() }
        return warmUp
    }

    private init(pointSize: Size, scale: Int, rasters: Int) {
        self.pointSize = pointSize
        self.scale = scale
        self.rasters = rasters
    }

    /// Says the first transition is about to render: rasters not mapped ahead by now are left
    /// to the renderers, which map what they take on their own cores. (A short run is played
    /// before the warm-up has mapped them all; mapping on then only competes with rendering.)
    public func renderingBegins() { begun.store(true, ordering: .relaxed) }

    /// Blocks until the warm-up is over. Call it before the process exits, from the thread that
    /// started it.
    public func wait() {
        guard let t = thread else { return }
        thread = nil
        pthread_join(t, nil)
    }

    private func run() {
        Self.warmFonts()
        let width = max(Int((pointSize.width * Double(scale)).rounded()), 1)
        let height = max(Int((pointSize.height * Double(scale)).rounded()), 1)
        RasterMemory.shared.prefill(bytes: width * height * 4, count: rasters, until: { self.begun.load(ordering: .relaxed) })
    }

    /// Measures a label in both weights the renderer and the contact sheet draw, which loads
    /// fontconfig's configuration and both font faces into cairo's caches.
    static func warmFonts() {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return }
        defer { cairo_destroy(cr) }
        for bold in [false, true] {
            ContentRasterizer.selectFont(cr, size: 12, bold: bold)
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, "0", &extents)
        }
    }
}
