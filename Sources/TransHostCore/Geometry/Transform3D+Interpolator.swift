extension Transform3D {
    /// The blend of two decomposed transforms (see `interpolate`): what an interpolator reads on
    /// every call when both ends decompose. A value without references, so a sampling plan can
    /// keep a copy of it next to the rest of what a frame reads (see SamplingPlan).
    struct Blend {
        /// What the blend mixes of one end: a decomposition but its rotation (the rotations
        /// blend through `rotation`).
        struct Parts {
            let scale: (x: Double, y: Double, z: Double)
            let skew: (xy: Double, xz: Double, yz: Double)
            let translation: (x: Double, y: Double, z: Double)
            let perspective: (x: Double, y: Double, z: Double, w: Double)
            let homogeneousScale: Double

            init(_ d: Decomposed) {
                scale = d.scale; skew = d.skew; translation = d.translation; perspective = d.perspective
                homogeneousScale = d.homogeneousScale
            }
        }

        let da: Parts, db: Parts
        let rotation: Slerp

        init(_ da: Decomposed, _ db: Decomposed) {
            self.da = Parts(da); self.db = Parts(db)
            rotation = Slerp(da.quaternion, db.quaternion)
        }

        /// The recomposed blend at t, or nil when it is not finite (the caller falls back to the
        /// component-wise blend).
        @inline(__always) func value(at t: Double) -> Transform3D? {
            func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
            let d = Decomposed(
                scale: (mix(da.scale.x, db.scale.x), mix(da.scale.y, db.scale.y), mix(da.scale.z, db.scale.z)),
                skew: (mix(da.skew.xy, db.skew.xy), mix(da.skew.xz, db.skew.xz), mix(da.skew.yz, db.skew.yz)),
                translation: (mix(da.translation.x, db.translation.x), mix(da.translation.y, db.translation.y),
                              mix(da.translation.z, db.translation.z)),
                perspective: (mix(da.perspective.x, db.perspective.x), mix(da.perspective.y, db.perspective.y),
                              mix(da.perspective.z, db.perspective.z), mix(da.perspective.w, db.perspective.w)),
                quaternion: rotation.value(at: t),
                homogeneousScale: mix(da.homogeneousScale, db.homogeneousScale))
            let out = Transform3D(recomposing: d)
            return out.isFinite ? out : nil
        }
    }

    /// Interpolation between two fixed transforms, decomposing each once (an animation samples
    /// the same pair every frame, and decomposition dominates the cost).
    public struct Interpolator {
        public var from: Transform3D { storage.from }
        public var to: Transform3D { storage.to }
        /// Everything behind one reference: inline it is over 500 bytes, which Swift copies
        /// wherever an interpolator is read from a class or an array (every animation, every frame).
        let storage: Storage

        /// In the order value(at:) reads them (the ends last: only edge cases return them).
        final class Storage {
            /// What value(at:) checks on every call, decided once.
            let bothFinite: Bool
            let same: Bool
            let decomposes: Bool
            /// The two ends decomposed and blended, when `decomposes` (not an optional: reading
            /// one field of an optional copies the whole blend).
            let blend: Blend
            let from: Transform3D
            let to: Transform3D

            init(_ a: Transform3D, _ b: Transform3D) {
                from = a; to = b
                bothFinite = a.isFinite && b.isFinite
                same = a == b
                if bothFinite, !same, let da = a.decomposed(), let db = b.decomposed() {
                    blend = Blend(da, db); decomposes = true
                } else {
                    let none = Decomposed(scale: (1, 1, 1), skew: (0, 0, 0), translation: (0, 0, 0), perspective: (0, 0, 0, 1),
                                          quaternion: Quaternion(x: 0, y: 0, z: 0, w: 1), homogeneousScale: 1)
                    blend = Blend(none, none); decomposes = false
                }
            }
        }

        public init(_ a: Transform3D, _ b: Transform3D) { storage = Storage(a, b) }

        /// Reads a word from each cache line `value(at:)` reads of `s`, mixed into one number
        /// (see PropertyAnimation.touch(level:)).
        static func touch(_ s: Storage) -> UInt64 {
            // Two equal ends (a held keyframe) return `from`, without reading the decompositions.
            if s.same { return s.from.m11.bitPattern ^ s.from.m31.bitPattern ^ s.from.m44.bitPattern }
            let b = s.blend
            var w = UInt64(s.bothFinite ? 1 : 0)
            w ^= b.da.scale.x.bitPattern ^ b.da.translation.y.bitPattern ^ b.da.perspective.w.bitPattern ^ b.da.homogeneousScale.bitPattern
            w ^= b.db.scale.x.bitPattern ^ b.db.translation.y.bitPattern ^ b.db.perspective.w.bitPattern ^ b.db.homogeneousScale.bitPattern
            return w ^ b.rotation.a.x.bitPattern ^ b.rotation.theta.bitPattern ^ b.rotation.perp.w.bitPattern
        }

        public func value(at t: Double) -> Transform3D { Self.value(storage, at: t) }

        /// `value(at:)` of the interpolator holding `s`: sampling calls it with a storage it
        /// borrows, so that no reference count is touched (each is an atomic operation, which
        /// also keeps the processor from starting later loads early).
        static func value(_ s: Storage, at t: Double) -> Transform3D {
            guard s.bothFinite else { return s.from.isFinite ? s.from : (s.to.isFinite ? s.to : .identity) }
            guard t.isFinite else { return t > 0 ? s.to : s.from }
            if t == 0 || s.same { return s.from }
            if t == 1 { return s.to }
            if s.decomposes, let out = s.blend.value(at: t) { return out }
            return componentwise(s.from, s.to, t)
        }
    }
}
