import CRenderKernels

/// Compares a rendered frame with its golden picture as a person would (CRenderKernels'
/// th_pixel_diff): colour distance in YIQ under `threshold`, anti-aliased edges that moved by a
/// pixel counted apart, and a pass when the differing pixels stay within both allowances.
public enum PixelComparison {
    /// How different two frames may be and still match (`--threshold`, `--max-diff-pixels`,
    /// `--max-diff-ratio`).
    public struct Tolerance: Equatable, Sendable {
        /// 0...1: the largest YIQ distance, as a fraction of black-to-white, still counted as
        /// equal. 0.1 hides what the eye does not see; 0 counts every changed byte.
        public var threshold: Double
        /// Differing pixels allowed.
        public var maxDiffPixels: Int
        /// Differing pixels allowed, as a fraction of the frame; the larger allowance wins.
        public var maxDiffRatio: Double
        /// Whether anti-aliased edge pixels are told apart (and not counted).
        public var detectAntialiasing: Bool

        public init(threshold: Double = 0.1, maxDiffPixels: Int = 0, maxDiffRatio: Double = 0, detectAntialiasing: Bool = true) {
            self.threshold = threshold; self.maxDiffPixels = maxDiffPixels; self.maxDiffRatio = maxDiffRatio
            self.detectAntialiasing = detectAntialiasing
        }

        /// How many differing pixels a frame of `total` pixels may have.
        public func allowed(ofTotal total: Int) -> Int { max(maxDiffPixels, Int((maxDiffRatio * Double(total)).rounded(.down))) }
    }

    public struct Result {
        public let width: Int
        public let height: Int
        /// Pixels that differ beyond the threshold (anti-aliasing excluded).
        public let differing: Int
        /// Differing pixels that look like anti-aliased edges.
        public let antialiased: Int
        /// The differing pixels' bounding box (x0, y0, x1, y1; ends exclusive), nil when none.
        public let bounds: (x0: Int, y0: Int, x1: Int, y1: Int)?
        /// The differing pixels allowed.
        public let allowed: Int
        /// The expected frame faded to grey, differing pixels red, anti-aliasing yellow.
        public let diffImage: RGBAImage
        public var total: Int { width * height }
        public var matches: Bool { differing <= allowed }
        public var ratio: Double { total > 0 ? Double(differing) / Double(total) : 0 }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case sizeDiffers(expected: (Int, Int), actual: (Int, Int))

        public var description: String {
            switch self {
            case .sizeDiffers(let e, let a):
                return "the frame is \(a.0) x \(a.1) pixels, the golden one \(e.0) x \(e.1) (another --scale or --device?)"
            }
        }

        public static func == (l: Failure, r: Failure) -> Bool {
            switch (l, r) {
            case (.sizeDiffers(let a, let b), .sizeDiffers(let c, let d)): return a == c && b == d
            }
        }
    }

    public static func compare(expected: RGBAImage, actual: RGBAImage, tolerance: Tolerance = Tolerance()) throws -> Result {
        guard expected.width == actual.width, expected.height == actual.height else {
            throw Failure.sizeDiffers(expected: (expected.width, expected.height), actual: (actual.width, actual.height))
        }
        let w = expected.width, h = expected.height
        let e = expected.rgbaBytes(), a = actual.rgbaBytes()
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let r = th_pixel_diff(e, a, Int32(w), Int32(h), min(max(tolerance.threshold, 0), 1), tolerance.detectAntialiasing ? 1 : 0, &out)
        let bounds = r.differing > 0 ? (Int(r.bounds.0), Int(r.bounds.1), Int(r.bounds.2), Int(r.bounds.3)) : nil
        return Result(width: w, height: h, differing: r.differing, antialiased: r.antialiased, bounds: bounds,
                      allowed: tolerance.allowed(ofTotal: w * h), diffImage: RGBAImage(opaqueRGBA: out, width: w, height: h))
    }
}

extension RGBAImage {
    /// An image from straight RGBA bytes whose alpha is 255 everywhere.
    convenience init(opaqueRGBA bytes: [UInt8], width: Int, height: Int) {
        self.init(width: width, height: height)
        for y in 0..<height {
            let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let i = (y * width + x) * 4
                row[x] = 0xff00_0000 | UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            }
        }
    }
}
