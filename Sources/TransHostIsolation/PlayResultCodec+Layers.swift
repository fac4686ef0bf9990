import TransHostCore

/// A frame node's layer sample (sublayers, mask, style; paths with every element), so worker
/// runs keep what the renderer draws for layers. Sent per node, since layers animate.
extension PlayResultCodec {
    static func layers(_ l: LayerTreeSample?, _ w: inout ByteWriter) {
        w.bool(l != nil)
        guard let l else { return }
        style(l.style, &w)
        w.u32(UInt32(l.sublayers.count))
        for s in l.sublayers { layer(s, &w) }
        w.bool(l.mask != nil)
        if let m = l.mask { layer(m, &w) }
    }

    static func layers(_ r: inout ByteReader) throws -> LayerTreeSample? {
        guard try r.bool() else { return nil }
        let st = try style(&r)
        var subs: [SampledLayer] = []
        for _ in 0..<(try r.count()) { subs.append(try layer(&r, depth: 1)) }
        let mask = try r.bool() ? try layer(&r, depth: 1) : nil
        return LayerTreeSample(style: st, sublayers: subs, mask: mask)
    }

    static func layer(_ l: SampledLayer, _ w: inout ByteWriter) {
        w.string(l.id); w.string(l.name); w.string(l.kind.rawValue)
        let s = l.state
        rect(s.bounds, &w); point(s.position, &w); point(s.anchorPoint, &w)
        for v in s.transform.values { w.f64(v) }
        w.f64(s.opacity); w.bool(s.isHidden); optionalColor(s.backgroundColor, &w); w.f64(s.cornerRadius); w.bool(s.masksToBounds)
        style(s.style, &w)
        w.bool(s.shape != nil)
        if let sh = s.shape {
            optionalPath(sh.path, &w); optionalColor(sh.fillColor, &w); optionalColor(sh.strokeColor, &w)
            w.f64(sh.lineWidth); w.f64(sh.strokeStart); w.f64(sh.strokeEnd)
            w.string(sh.fillRule.rawValue); w.string(sh.lineCap.rawValue); w.string(sh.lineJoin.rawValue)
            w.f64(sh.miterLimit); optionalNumbers(sh.lineDashPattern, &w); w.f64(sh.lineDashPhase)
        }
        w.bool(s.gradient != nil)
        if let g = s.gradient {
            w.u32(UInt32(g.colors.count)); for c in g.colors { color(c, &w) }
            optionalNumbers(g.locations, &w); point(g.startPoint, &w); point(g.endPoint, &w)
        }
        w.u32(UInt32(l.sublayers.count))
        for s in l.sublayers { layer(s, &w) }
        w.bool(l.mask != nil)
        if let m = l.mask { layer(m, &w) }
    }

    static func layer(_ r: inout ByteReader, depth: Int) throws -> SampledLayer {
        guard depth <= View.maxDepth else { throw ByteReader.Damaged(description: "the worker's result nests layers more than \(View.maxDepth) deep") }
        let id = try r.string(), name = try r.string(), kindName = try r.string()
        guard let kind = LayerKind(rawValue: kindName) else { throw ByteReader.Damaged(description: "the worker's result has a layer of unknown kind \(kindName)") }
        var s = LayerState(kind: kind)
        s.bounds = try rect(&r); s.position = try point(&r); s.anchorPoint = try point(&r)
        s.transform = Transform3D(try (0..<16).map { _ in try r.f64() })
        s.opacity = try r.f64(); s.isHidden = try r.bool(); s.backgroundColor = try optionalColor(&r); s.cornerRadius = try r.f64()
        s.masksToBounds = try r.bool()
        s.style = try style(&r)
        if try r.bool() {
            var sh = ShapeStyle()
            sh.path = try optionalPath(&r); sh.fillColor = try optionalColor(&r); sh.strokeColor = try optionalColor(&r)
            sh.lineWidth = try r.f64(); sh.strokeStart = try r.f64(); sh.strokeEnd = try r.f64()
            sh.fillRule = FillRule(rawValue: try r.string()) ?? .nonZero
            sh.lineCap = LineCap(rawValue: try r.string()) ?? .butt
            sh.lineJoin = LineJoin(rawValue: try r.string()) ?? .miter
            sh.miterLimit = try r.f64(); sh.lineDashPattern = try optionalNumbers(&r); sh.lineDashPhase = try r.f64()
            s.shape = sh
        } else { s.shape = nil }
        if try r.bool() {
            var g = GradientStyle()
            for _ in 0..<(try r.count()) { g.colors.append(try color(&r)) }
            g.locations = try optionalNumbers(&r); g.startPoint = try point(&r); g.endPoint = try point(&r)
            s.gradient = g
        } else { s.gradient = nil }
        var subs: [SampledLayer] = []
        for _ in 0..<(try r.count()) { subs.append(try layer(&r, depth: depth + 1)) }
        let mask = try r.bool() ? try layer(&r, depth: depth + 1) : nil
        return SampledLayer(id: id, name: name, kind: kind, state: s, sublayers: subs, mask: mask)
    }

    static func style(_ s: LayerStyle, _ w: inout ByteWriter) {
        for v in s.sublayerTransform.values { w.f64(v) }
        w.f64(s.zPosition); w.bool(s.isDoubleSided); w.f64(s.borderWidth); optionalColor(s.borderColor, &w)
        let sh = s.shadow
        optionalColor(sh.color, &w); w.f64(sh.opacity); w.f64(sh.offset.width); w.f64(sh.offset.height); w.f64(sh.radius)
        optionalPath(sh.path, &w)
    }

    static func style(_ r: inout ByteReader) throws -> LayerStyle {
        var s = LayerStyle()
        s.sublayerTransform = Transform3D(try (0..<16).map { _ in try r.f64() })
        s.zPosition = try r.f64(); s.isDoubleSided = try r.bool(); s.borderWidth = try r.f64(); s.borderColor = try optionalColor(&r)
        s.shadow = Shadow(color: try optionalColor(&r), opacity: try r.f64(), offset: Size(width: try r.f64(), height: try r.f64()),
                          radius: try r.f64(), path: try optionalPath(&r))
        return s
    }

    static func optionalPath(_ p: Path?, _ w: inout ByteWriter) {
        w.bool(p != nil)
        guard let p else { return }
        w.u32(UInt32(p.elements.count))
        for e in p.elements {
            w.u8(UInt8(e.kind))
            for q in e.points { point(q, &w) }
        }
    }

    static func optionalPath(_ r: inout ByteReader) throws -> Path? {
        guard try r.bool() else { return nil }
        var p = Path()
        for _ in 0..<(try r.count()) {
            switch try r.u8() {
            case 0: p.move(to: try point(&r))
            case 1: p.addLine(to: try point(&r))
            case 2: p.addQuadCurve(to: try point(&r), control: try point(&r))
            case 3: p.addCurve(to: try point(&r), control1: try point(&r), control2: try point(&r))
            case 4: p.closeSubpath()
            case let k: throw ByteReader.Damaged(description: "the worker's result has a path element of unknown kind \(k)")
            }
        }
        return p
    }

    static func optionalColor(_ c: Color?, _ w: inout ByteWriter) { w.bool(c != nil); if let c { color(c, &w) } }
    static func optionalColor(_ r: inout ByteReader) throws -> Color? { try r.bool() ? try color(&r) : nil }
    static func optionalNumbers(_ n: [Double]?, _ w: inout ByteWriter) {
        w.bool(n != nil)
        if let n { w.u32(UInt32(n.count)); for x in n { w.f64(x) } }
    }
    static func optionalNumbers(_ r: inout ByteReader) throws -> [Double]? {
        guard try r.bool() else { return nil }
        return try (0..<(try r.count())).map { _ in try r.f64() }
    }
    static func point(_ p: Point, _ w: inout ByteWriter) { w.f64(p.x); w.f64(p.y) }
    static func point(_ r: inout ByteReader) throws -> Point { Point(x: try r.f64(), y: try r.f64()) }
    static func rect(_ q: Rect, _ w: inout ByteWriter) { w.f64(q.minX); w.f64(q.minY); w.f64(q.width); w.f64(q.height) }
    static func rect(_ r: inout ByteReader) throws -> Rect { Rect(x: try r.f64(), y: try r.f64(), width: try r.f64(), height: try r.f64()) }
}
