import CGif
import Foundation

/// Reads a GIF back with giflib and plays it the way a viewer does (each frame drawn over the
/// last, transparent pixels keeping what was there), so tests can check what a person sees.
public struct DecodedGIF {
    public let width: Int
    public let height: Int
    /// The picture after each frame, 0x00RRGGBB per pixel, row by row.
    public let canvases: [[UInt32]]
    /// Each frame's delay in centiseconds.
    public let delays: [Int]
    /// Each frame's rectangle (left, top, width, height).
    public let rects: [[Int]]
    /// Colours in each frame's colour table.
    public let paletteSizes: [Int]
    /// Whether the NETSCAPE2.0 loop extension is there.
    public let loops: Bool

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public init(path: String) throws {
        var err: Int32 = 0
        guard let gif = DGifOpenFileName(path, &err) else { throw Failure(description: "DGifOpenFileName(\(path)): \(err)") }
        defer { var e: Int32 = 0; DGifCloseFile(gif, &e) }
        guard DGifSlurp(gif) == GIF_OK else { throw Failure(description: "DGifSlurp(\(path)) failed: \(gif.pointee.Error)") }
        let w = Int(gif.pointee.SWidth), h = Int(gif.pointee.SHeight)
        var canvas = [UInt32](repeating: 0, count: w * h)
        var canvases: [[UInt32]] = [], delays: [Int] = [], rects: [[Int]] = [], sizes: [Int] = []
        var loops = false
        for k in 0..<Int(gif.pointee.ImageCount) {
            let im = gif.pointee.SavedImages[k], d = im.ImageDesc
            guard let map = d.ColorMap ?? gif.pointee.SColorMap else { throw Failure(description: "frame \(k) has no colour table") }
            var gcb = GraphicsControlBlock()
            var transparent = -1
            if DGifSavedExtensionToGCB(gif, Int32(k), &gcb) == GIF_OK {
                transparent = Int(gcb.TransparentColor)
                delays.append(Int(gcb.DelayTime))
            } else {
                delays.append(0)
            }
            for x in 0..<Int(im.ExtensionBlockCount) {
                let b = im.ExtensionBlocks[x]
                if b.Function == APPLICATION_EXT_FUNC_CODE, b.ByteCount == 11,
                   String(decoding: UnsafeBufferPointer(start: b.Bytes, count: 11), as: UTF8.self) == "NETSCAPE2.0" { loops = true }
            }
            let left = Int(d.Left), top = Int(d.Top), rw = Int(d.Width), rh = Int(d.Height)
            guard left >= 0, top >= 0, left + rw <= w, top + rh <= h else { throw Failure(description: "frame \(k) lies outside the screen") }
            for y in 0..<rh {
                for x in 0..<rw {
                    let i = Int(im.RasterBits[y * rw + x])
                    if i == transparent { continue }
                    guard i < Int(map.pointee.ColorCount) else { throw Failure(description: "frame \(k) uses index \(i) past its colour table") }
                    let c = map.pointee.Colors[i]
                    canvas[(top + y) * w + left + x] = UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
                }
            }
            canvases.append(canvas)
            rects.append([left, top, rw, rh])
            sizes.append(Int(map.pointee.ColorCount))
        }
        self.width = w; self.height = h
        self.canvases = canvases; self.delays = delays; self.rects = rects; self.paletteSizes = sizes; self.loops = loops
    }
}
