/// A seeded generator (a 64-bit LCG) of the random inputs the kernel tests compare with
/// pixman or with the scalar level: the same seed gives the same cases on every machine.
struct PixelNoise {
    var s: UInt64
    init(s: UInt64) { self.s = s }

    mutating func next() -> UInt32 {
        s = s &* 6364136223846793005 &+ 1442695040888963407
        return UInt32(truncatingIfNeeded: s >> 33)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt32(n)) }
    mutating func unit() -> Double { Double(next() & 0xff_ffff) / 16_777_216 }
    mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

    /// A premultiplied pixel: clear, opaque and translucent ones (or opaque only). With
    /// `loose`, about one translucent pixel in 50 is any word at all (not premultiplied), which
    /// the kernels must not trip over.
    mutating func pixel(opaque: Bool, loose: Bool = false) -> UInt32 {
        let r = next()
        let mixed: UInt32 = switch r % 6 { case 0: 0; case 1, 2: 255; default: r >> 24 }
        let a = opaque ? 255 : mixed
        if loose && !opaque && r % 50 == 7 { return next() }
        let c = next()
        func ch(_ v: UInt32) -> UInt32 { (v & 255) * a / 255 }
        return a << 24 | ch(c >> 16) << 16 | ch(c >> 8) << 8 | ch(c)
    }
}
