extension Transform3D {
    /// Interpolates two transforms at progress t (t may leave [0, 1]).
    /// Placeholder: component-wise. Replaced by decomposition (translate, scale, skew,
    /// perspective, quaternion) in the engine issue.
    public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ t: Double) -> Transform3D {
        let av = a.values, bv = b.values
        return Transform3D((0..<16).map { av[$0] + (bv[$0] - av[$0]) * t })
    }
}
