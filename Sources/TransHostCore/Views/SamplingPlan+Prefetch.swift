/// Reading ahead while a plan is built.
///
/// Why: building a plan reads every view, its animation list, every animation and what that
/// points to (an interpolator, key times), each where the heap put it; with thousands of views
/// none of it is in a cache, and each read waits for the one it depends on (about 200 ns each
/// on this machine). Before a run of siblings is added, what they will read is touched level by
/// level: the loads of one level do not depend on each other, so the processor has many of them
/// in flight at once instead of one. Nothing is computed from what is read.
extension SamplingPlan {
    /// How many siblings are touched ahead at a time.
    static let buildTouchBatch = 16

    /// Touches what `add` reads of `views[range]` and their animations.
    static func touch(_ views: UnsafeBufferPointer<View>, _ range: Range<Int>) -> UInt64 {
        var w: UInt64 = 0
        for k in range {
            Unmanaged.passUnretained(views[k])._withUnsafeGuaranteedRef { v in
                let m = v.model
                w ^= m.bounds.origin.x.bitPattern ^ m.position.y.bitPattern ^ m.transform.m21.bitPattern ^ m.transform.m41.bitPattern
                w ^= m.alpha.bitPattern ^ m.cornerRadius.bitPattern ^ UInt64(UInt(bitPattern: v.lastSampleCount))
                w ^= (v.isHidden ? 1 : 0) ^ (v.layerExtrasFlag ? 2 : 0)
            }
        }
        for k in range {
            Unmanaged.passUnretained(views[k])._withUnsafeGuaranteedRef { v in
                w ^= UInt64(v.subviews.count)
                v.animations.list.withUnsafeBufferPointer { list in
                    for a in list { w ^= UInt64(UInt(bitPattern: Unmanaged.passUnretained(a).toOpaque())) }
                }
            }
        }
        for level in 0..<3 {
            for k in range {
                Unmanaged.passUnretained(views[k])._withUnsafeGuaranteedRef { v in
                    v.animations.list.withUnsafeBufferPointer { list in
                        for a in list { w ^= Unmanaged.passUnretained(a)._withUnsafeGuaranteedRef { $0.touch(level: level) } }
                    }
                }
            }
        }
        return w
    }
}

extension PropertyAnimation {
    /// Reads a word from each cache line that building a plan reads of this animation at depth
    /// `level` (0: this object; 1: the interpolator and buffers it points to; 2: its segments'
    /// interpolators), mixed into one number.
    func touch(level: Int) -> UInt64 {
        if level == 0 {
            var w = begin.bitPattern ^ endThreshold.bitPattern ^ from4.0.bitPattern ^ to4.3.bitPattern ^ (plainEnds ? 1 : 0)
            if let spring { w ^= spring.stiffness.bitPattern } else if case .bezier(let b) = curve { w ^= b.p2y.bitPattern }
            return w ^ UInt64(UInt(bitPattern: keyTimes.baseAddress)) ^ UInt64(UInt(bitPattern: segments.baseAddress))
        }
        var w: UInt64 = 0
        if level == 1 {
            if let transformStorage { w ^= transformStorage._withUnsafeGuaranteedRef { Transform3D.Interpolator.touch($0) } }
            for i in keyTimes.indices { w ^= keyTimes[i].bitPattern }
            for i in segments.indices { w ^= UInt64(UInt(bitPattern: segments[i].toOpaque())) }
            var i = 0
            while i < keyValues.count { w ^= keyValues[i].bitPattern; i += 8 }
        } else {
            for i in segments.indices { w ^= segments[i]._withUnsafeGuaranteedRef { Transform3D.Interpolator.touch($0) } }
        }
        return w
    }
}
