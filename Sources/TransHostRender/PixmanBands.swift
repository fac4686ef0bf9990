import CPixman
import CRenderKernels
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// One pixman composite over a destination rectangle, split into two fixed row bands on two
/// threads when the rectangle is large and a core is free (th_render_may_band): both cores then
/// draw the screen-sized layers of a frame.
///
/// The bands give the same bytes as one call: pixman maps each destination row's first pixel
/// through the transform on its own (a row further down adds whole multiples of the matrix
/// entries, exactly, in 16.16), and no pixel reads another destination pixel. The images are
/// validated by a first, empty call on this thread, so the two band calls only read the
/// images' state.
final class PixmanBands: @unchecked Sendable {
    let op: pixman_op_t
    let src: OpaquePointer, mask: OpaquePointer?, dst: OpaquePointer
    let srcOrigin: (x: Int, y: Int), maskOrigin: (x: Int, y: Int)
    let rect: PixelRect, mid: Int

    /// Below this many destination pixels (or rows) one call on one thread is cheaper.
    static let minPixels = 1 << 17, minRows = 64

    private init(_ op: pixman_op_t, _ src: OpaquePointer, _ mask: OpaquePointer?, _ dst: OpaquePointer,
                 src so: (x: Int, y: Int), mask mo: (x: Int, y: Int), rect: PixelRect) {
        self.op = op; self.src = src; self.mask = mask; self.dst = dst
        srcOrigin = so; maskOrigin = mo; self.rect = rect; mid = rect.y0 + rect.height / 2
    }

    /// pixman_image_composite32(op, src, mask, dst, ...) over `rect`, with the source and mask
    /// coordinates of the rectangle's top-left pixel.
    static func composite(_ op: pixman_op_t, _ src: OpaquePointer, _ mask: OpaquePointer?, _ dst: OpaquePointer,
                          src so: (x: Int, y: Int), mask mo: (x: Int, y: Int), rect: PixelRect) {
        let job = PixmanBands(op, src, mask, dst, src: so, mask: mo, rect: rect)
        guard th_render_may_band() != 0, rect.height >= minRows, rect.area >= minPixels else {
            job.band(rect.y0, rect.y1)
            return
        }
        job.band(rect.y0, rect.y0) // validates the images here, drawing nothing
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if i == 0 { job.band(job.rect.y0, job.mid) } else { job.band(job.mid, job.rect.y1) }
        }
    }

    private func band(_ ya: Int, _ yb: Int) {
        let dy = ya - rect.y0
        pixman_image_composite32(op, src, mask, dst, Int32(srcOrigin.x), Int32(srcOrigin.y + dy),
                                 Int32(maskOrigin.x), Int32(maskOrigin.y + dy),
                                 Int32(rect.x0), Int32(ya), Int32(rect.width), Int32(yb - ya))
    }
}
