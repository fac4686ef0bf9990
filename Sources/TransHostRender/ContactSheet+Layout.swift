extension ContactSheet {
    /// Where a sheet puts its thumbnails: the sheet's size and each thumbnail's rectangle, in
    /// pixels. `make` draws by it, and the HTML report crops a sheet's cells by it, so both
    /// agree on every pixel.
    public struct Layout: Equatable, Sendable {
        public let width: Int
        public let height: Int
        /// x, y, width, height of each thumbnail, in frame order.
        public let cells: [[Int]]
    }

    static let pad = 8, labelHeight = 22

    /// The layout of a sheet of `count` frames of `frameWidth` x `frameHeight` pixels.
    public static func layout(count: Int, frameWidth: Int, frameHeight: Int, caption: Caption?, columns: Int = 4,
                              thumbnailWidth: Int = 160) -> Layout {
        let cols = max(1, min(columns, max(count, 1)))
        let rows = max(1, (count + cols - 1) / cols)
        let aspect = count > 0 ? Double(frameHeight) / Double(max(frameWidth, 1)) : 1
        let tw = max(thumbnailWidth, 16), th = max(Int((Double(tw) * aspect).rounded()), 1)
        let cellW = tw + pad, cellH = th + labelHeight + pad
        let header = caption.map { c in 52 + (c.isBreached ? 18 * min(c.breaches.count, 3) + 4 : 0) } ?? 0
        let cells = (0..<count).map { k in [pad + (k % cols) * cellW, header + pad + (k / cols) * cellH, tw, th] }
        return Layout(width: cols * cellW + pad, height: header + rows * cellH + pad, cells: cells)
    }
}
