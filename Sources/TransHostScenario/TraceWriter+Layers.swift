import TransHostCore
import TransHostSupport

/// The trace fields of a view's layer beyond its presentation state (docs/trace.md, "A view's
/// layer"). Only what differs from Core Animation's defaults is written, and paths are summed up
/// by their bounds and element count, so traces of plain views are unchanged and others stay small.
extension TraceWriter {
    static func layer(_ s: LayerTreeSample) -> JSONValue {
        var o: [String: JSONValue] = [:]
        style(s.style, into: &o)
        if !s.sublayers.isEmpty { o["sublayers"] = .array(s.sublayers.map(layer)) }
        if let m = s.mask { o["mask"] = layer(m) }
        return .object(o)
    }

    static func layer(_ l: SampledLayer) -> JSONValue {
        let s = l.state
        var o: [String: JSONValue] = [
            "id": .string(l.id),
            "kind": .string(l.kind.rawValue),
            "bounds": numbers([s.bounds.minX, s.bounds.minY, s.bounds.width, s.bounds.height]),
            "position": numbers([s.position.x, s.position.y]),
            "anchor": numbers([s.anchorPoint.x, s.anchorPoint.y]),
            "transform": numbers(s.transform.values),
            "opacity": .number(s.opacity),
        ]
        if !l.name.isEmpty { o["name"] = .string(l.name) }
        if s.isHidden { o["hidden"] = .bool(true) }
        if let c = s.backgroundColor { o["backgroundColor"] = .string(c.hexString) }
        if s.cornerRadius != 0 { o["cornerRadius"] = .number(s.cornerRadius) }
        if s.masksToBounds { o["masksToBounds"] = .bool(true) }
        style(s.style, into: &o)
        if let sh = s.shape {
            var p: [String: JSONValue] = [
                "fillColor": sh.fillColor.map { .string($0.hexString) } ?? .null,
                "strokeColor": sh.strokeColor.map { .string($0.hexString) } ?? .null,
                "lineWidth": .number(sh.lineWidth),
                "strokeStart": .number(sh.strokeStart),
                "strokeEnd": .number(sh.strokeEnd),
                "fillRule": .string(sh.fillRule.rawValue),
                "lineCap": .string(sh.lineCap.rawValue),
                "lineJoin": .string(sh.lineJoin.rawValue),
            ]
            p["path"] = sh.path.map(path) ?? .null
            o["shape"] = .object(p)
        }
        if let g = s.gradient {
            o["gradient"] = [
                "colors": .array(g.colors.map { .string($0.hexString) }),
                "locations": g.locations.map(numbers) ?? .null,
                "startPoint": numbers([g.startPoint.x, g.startPoint.y]),
                "endPoint": numbers([g.endPoint.x, g.endPoint.y]),
            ]
        }
        if !l.sublayers.isEmpty { o["sublayers"] = .array(l.sublayers.map(layer)) }
        if let m = l.mask { o["mask"] = layer(m) }
        return .object(o)
    }

    /// A path in a trace: its bounding box (the path itself, not its control points) and how
    /// many elements it has.
    static func path(_ p: Path) -> JSONValue {
        let b = p.pathBoundingBox
        return ["bounds": numbers([b.minX, b.minY, b.width, b.height]), "elements": .number(Double(p.elementCount))]
    }

    private static func style(_ st: LayerStyle, into o: inout [String: JSONValue]) {
        if !st.sublayerTransform.isIdentity { o["sublayerTransform"] = numbers(st.sublayerTransform.values) }
        if st.zPosition != 0 { o["zPosition"] = .number(st.zPosition) }
        if !st.isDoubleSided { o["doubleSided"] = .bool(false) }
        if st.borderWidth != 0 {
            o["borderWidth"] = .number(st.borderWidth)
            o["borderColor"] = st.borderColor.map { .string($0.hexString) } ?? .null
        }
        let sh = st.shadow
        if sh != .none {
            var s: [String: JSONValue] = [
                "color": sh.color.map { .string($0.hexString) } ?? .null,
                "opacity": .number(sh.opacity),
                "offset": numbers([sh.offset.width, sh.offset.height]),
                "radius": .number(sh.radius),
            ]
            if let p = sh.path { s["path"] = path(p) }
            o["shadow"] = .object(s)
        }
    }

    private static func numbers(_ xs: [Double]) -> JSONValue { .array(xs.map(JSONValue.number)) }
}
