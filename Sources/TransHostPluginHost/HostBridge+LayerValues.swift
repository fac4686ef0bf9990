import CTransHost
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore
import TransHostCoordinators

/// Layer values across the ABI: th_layer_value <-> LayerValue, properties by key on a view's
/// layer and on standalone layers, and th_layer_animation -> LayerAnimation.
enum LayerValueReader {
    /// The value a plugin passed, or nil with the reason (a wrong kind, too few numbers).
    static func read(_ p: UnsafePointer<th_layer_value>, problem: inout String?) -> LayerValue? {
        let v = p.pointee
        guard v.struct_size >= UInt32(MemoryLayout<th_layer_value>.size) else {
            problem = "a th_layer_value has struct_size \(v.struct_size), smaller than ABI 1.3's \(MemoryLayout<th_layer_value>.size)"
            return nil
        }
        let count = Int(clamping: v.count)
        func numbers(_ n: Int) -> [Double]? {
            guard count >= n, let ptr = v.numbers else {
                problem = "a \(kindName(v.kind)) value needs \(n) numbers, it has \(v.numbers == nil ? 0 : count)"
                return nil
            }
            return (0..<n).map { ptr[$0] }
        }
        switch v.kind {
        case TH_VALUE_NUMBER: return numbers(1).map { .number($0[0]) }
        case TH_VALUE_POINT: return numbers(2).map { .point(Point(x: $0[0], y: $0[1])) }
        case TH_VALUE_SIZE: return numbers(2).map { .size(Size(width: $0[0], height: $0[1])) }
        case TH_VALUE_RECT: return numbers(4).map { .rect(Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3])) }
        case TH_VALUE_TRANSFORM: return numbers(16).map { .transform(Transform3D($0)) }
        case TH_VALUE_COLOR:
            if v.is_null != 0 { return .color(nil) }
            return numbers(4).map { .color(Color(red: $0[0], green: $0[1], blue: $0[2], alpha: $0[3])) }
        case TH_VALUE_PATH:
            if v.is_null != 0 { return .path(nil) }
            return path(v.elements, v.element_count, problem: &problem).map { .path($0) }
        case TH_VALUE_COLORS:
            guard let n = numbers(count - count % 4) else { return nil }
            return .colors(stride(from: 0, to: n.count, by: 4).map { Color(red: n[$0], green: n[$0 + 1], blue: n[$0 + 2], alpha: n[$0 + 3]) })
        case TH_VALUE_NUMBERS:
            if v.is_null != 0 { return .numbers(nil) }
            return numbers(count).map { .numbers($0) }
        default:
            problem = "\(v.kind) is not a TH_VALUE_* kind here"
            return nil
        }
    }

    static func path(_ elements: UnsafePointer<th_path_element>?, _ n: UInt64, problem: inout String?) -> Path? {
        var p = Path()
        guard n > 0 else { return p }
        guard let elements else { problem = "a path has \(n) elements but a NULL element pointer"; return nil }
        guard n <= 1_000_000 else { problem = "a path has \(n) elements, more than 1000000"; return nil }
        for i in 0..<Int(n) {
            let e = elements[i]
            let q = [e.points.0, e.points.1, e.points.2].map { Point(x: $0.x, y: $0.y) }
            switch e.kind {
            case TH_PATH_MOVE: p.move(to: q[0])
            case TH_PATH_LINE: p.addLine(to: q[0])
            case TH_PATH_QUAD: p.addQuadCurve(to: q[0], control: q[1])
            case TH_PATH_CUBIC: p.addCurve(to: q[0], control1: q[1], control2: q[2])
            case TH_PATH_CLOSE: p.closeSubpath()
            default: problem = "path element \(i) has kind \(e.kind), not a TH_PATH_* kind"; return nil
            }
        }
        return p
    }

    static func kindName(_ k: UInt32) -> String {
        ["", "number", "point", "size", "rect", "transform", "color", "path", "colors", "numbers", "string"][Int(min(k, 10))]
    }
}

extension HostBridge {
    func setLayerValue(_ target: LayerTarget, _ key: String, _ value: UnsafePointer<th_layer_value>) -> Bool {
        var problem: String?
        if let flag = LayerFlagKey(rawValue: key) { return setFlag(target, flag, value.pointee) }
        guard let property = LayerProperty(rawValue: key) else {
            breach("invalid-value", "layer_set_value: \"\(key)\" is not a layer property transhost knows (docs/animation.md lists them); the call was ignored")
            return false
        }
        guard let v = LayerValueReader.read(value, problem: &problem) else {
            breach("invalid-value", "layer_set_value(\"\(key)\"): \(problem ?? "the value is malformed"); the call was ignored")
            return false
        }
        guard v.isFinite else {
            breach("invalid-value", "layer_set_value(\"\(key)\") got a non-finite value; the call was ignored")
            return false
        }
        switch target {
        case .layer(let l):
            guard let old = l.modelValue(property) else {
                breach("invalid-value", "layer_set_value: a \(l.kind.rawValue) layer has no \(key); the call was ignored")
                return false
            }
            guard old.matches(v) || old.kindName == v.kindName else {
                breach("invalid-value", "layer_set_value(\"\(key)\") takes a \(old.kindName), not a \(v.kindName); the call was ignored")
                return false
            }
            return l.setModelValue(v, for: property)
        case .view(let view):
            return setViewLayer(view, property, v)
        }
    }

    /// A view's layer: geometry and appearance go through the view's own setters (so they animate
    /// inside UIView blocks); the layer style changes at once.
    private func setViewLayer(_ view: View, _ property: LayerProperty, _ v: LayerValue) -> Bool {
        switch (property, v) {
        case (.bounds, .rect(let r)): view.bounds = r
        case (.position, .point(let p)): view.position = p
        case (.anchorPoint, .point(let p)): view.anchorPoint = p
        case (.transform, .transform(let t)): view.transform3D = t
        case (.opacity, .number(let x)): view.alpha = min(max(x, 0), 1)
        case (.backgroundColor, .color(let c)): view.backgroundColor = c
        case (.cornerRadius, .number(let x)): view.cornerRadius = max(x, 0)
        case (.borderWidth, .number(let x)): view.content.borderWidth = max(x, 0)
        case (.borderColor, .color(let c)): view.content.borderColor = c ?? .clear
        default:
            var s = LayerState()
            s.style = view.layerStyle
            guard property.set(v, in: &s) else {
                breach("invalid-value", "layer_set_value: a view's layer has no \(property.rawValue) of kind \(v.kindName); the call was ignored")
                return false
            }
            view.layerStyle = s.style
        }
        return true
    }

    private func setFlag(_ target: LayerTarget, _ flag: LayerFlagKey, _ v: th_layer_value) -> Bool {
        let number = v.numbers.map { $0[0] } ?? 0
        let string = v.string.map { String(cString: $0) }
        func bad(_ want: String) -> Bool {
            breach("invalid-value", "layer_set_value(\"\(flag.rawValue)\") takes \(want); the call was ignored")
            return false
        }
        switch (flag, target) {
        case (.hidden, .view(let view)): view.isHidden = number != 0
        case (.hidden, .layer(let l)): l.isHidden = number != 0
        case (.masksToBounds, .view(let view)): view.clipsToBounds = number != 0
        case (.masksToBounds, .layer(let l)): l.masksToBounds = number != 0
        case (.doubleSided, .view(let view)): view.layerStyle.isDoubleSided = number != 0
        case (.doubleSided, .layer(let l)): l.isDoubleSided = number != 0
        case (.name, .layer(let l)): l.name = string ?? ""
        case (.name, .view): return true
        case (.fillRule, .layer(let l)):
            guard let r = string.flatMap(FillRule.init(rawValue:)) else { return bad("\"nonZero\" or \"evenOdd\"") }
            l.fillRule = r
        case (.lineCap, .layer(let l)):
            guard let c = string.flatMap(LineCap.init(rawValue:)) else { return bad("\"butt\", \"round\" or \"square\"") }
            l.lineCap = c
        case (.lineJoin, .layer(let l)):
            guard let j = string.flatMap(LineJoin.init(rawValue:)) else { return bad("\"miter\", \"round\" or \"bevel\"") }
            l.lineJoin = j
        case (.lineDashPattern, .layer(let l)):
            if v.is_null != 0 || v.numbers == nil { l.lineDashPattern = nil; return true }
            let n = Int(clamping: v.count)
            l.lineDashPattern = (0..<n).map { v.numbers![$0] }
        default:
            return bad("a shape layer")
        }
        return true
    }

    func layerValue(_ target: LayerTarget, _ key: String, presentation: Bool, _ out: UnsafeMutablePointer<th_layer_value>) -> Bool {
        var value: LayerValue?
        var state: LayerState
        switch target {
        case .layer(let l): state = presentation ? engine.coreAnimation.presentation(of: l) : l.modelState
        case .view(let v):
            let p = presentation ? engine.presentation(of: v) : v.modelState
            state = LayerState()
            state.bounds = p.bounds; state.position = p.position; state.anchorPoint = p.anchorPoint; state.transform = p.transform
            state.opacity = p.alpha; state.backgroundColor = p.backgroundColor; state.cornerRadius = p.cornerRadius
            state.isHidden = v.isHidden; state.masksToBounds = v.clipsToBounds
            state.style = presentation ? engine.coreAnimation.presentationStyle(of: v) : v.layerStyle
            state.style.borderWidth = v.content.borderWidth; state.style.borderColor = v.content.borderColor
        }
        var string: String?
        if let property = LayerProperty(rawValue: key) {
            value = property.value(in: state)
        } else if let flag = LayerFlagKey(rawValue: key) {
            switch flag {
            case .hidden: value = .number(state.isHidden ? 1 : 0)
            case .masksToBounds: value = .number(state.masksToBounds ? 1 : 0)
            case .doubleSided: value = .number(state.style.isDoubleSided ? 1 : 0)
            case .fillRule: string = state.shape?.fillRule.rawValue
            case .lineCap: string = state.shape?.lineCap.rawValue
            case .lineJoin: string = state.shape?.lineJoin.rawValue
            case .lineDashPattern: value = state.shape.map { .numbers($0.lineDashPattern) }
            case .name:
                if case .layer(let l) = target { string = l.name }
                else if case .view(let v) = target { string = v.name }
            }
        }
        guard value != nil || string != nil else { return false }
        write(value, string: string, to: out)
        return true
    }

    private func write(_ value: LayerValue?, string: String?, to out: UnsafeMutablePointer<th_layer_value>) {
        let s = layerScratch
        s.reset()
        var r = th_layer_value()
        r.struct_size = UInt32(MemoryLayout<th_layer_value>.size)
        if let string {
            r.kind = TH_VALUE_STRING
            s.string = strdup(string)
            r.string = UnsafePointer(s.string)
            out.pointee = r
            return
        }
        guard let value else { return }
        let kinds: [String: UInt32] = ["number": TH_VALUE_NUMBER, "point": TH_VALUE_POINT, "size": TH_VALUE_SIZE, "rect": TH_VALUE_RECT,
                                       "transform": TH_VALUE_TRANSFORM, "color": TH_VALUE_COLOR, "path": TH_VALUE_PATH,
                                       "colors": TH_VALUE_COLORS, "numbers": TH_VALUE_NUMBERS]
        r.kind = kinds[value.kindName] ?? 0
        switch value {
        case .color(.none), .path(.none), .numbers(.none): r.is_null = 1
        default: break
        }
        if case .path(let p?) = value {
            let buf = UnsafeMutablePointer<th_path_element>.allocate(capacity: max(p.elementCount, 1))
            for (i, e) in p.elements.enumerated() {
                let q = e.points.map { th_point(x: $0.x, y: $0.y) } + Array(repeating: th_point(), count: 3)
                buf[i] = th_path_element(kind: UInt32(e.kind), points: (q[0], q[1], q[2]))
            }
            s.elements = buf
            r.elements = UnsafePointer(buf)
            r.element_count = UInt64(p.elementCount)
        } else {
            let v = value.vector
            let buf = UnsafeMutablePointer<Double>.allocate(capacity: max(v.count, 1))
            for (i, x) in v.enumerated() { buf[i] = x }
            s.numbers = buf
            r.numbers = UnsafePointer(buf)
            r.count = UInt64(v.count)
        }
        out.pointee = r
    }
}

/// th_layer_animation -> LayerAnimation, checking what a plugin could get wrong.
enum LayerAnimationReader {
    static let maximumGroupDepth = 16

    static func read(_ p: UnsafePointer<th_layer_animation>, depth: Int, problem: inout String?) -> LayerAnimation? {
        let a = p.pointee
        guard a.struct_size >= UInt32(MemoryLayout<th_layer_animation>.size) else {
            problem = "its struct_size \(a.struct_size) is smaller than ABI 1.3's th_layer_animation (\(MemoryLayout<th_layer_animation>.size))"
            return nil
        }
        let numbers = [a.duration, a.begin_time, a.speed, a.time_offset, a.repeat_duration, a.mass, a.stiffness, a.damping, a.initial_velocity]
        guard numbers.allSatisfy(\.isFinite), !a.repeat_count.isNaN else {
            problem = "a timing or spring number is not finite (duration \(a.duration), beginTime \(a.begin_time), speed \(a.speed), timeOffset \(a.time_offset))"
            return nil
        }
        guard a.duration >= 0, a.repeat_duration >= 0, a.repeat_count >= 0 else {
            problem = "duration, repeatCount and repeatDuration must not be negative"
            return nil
        }
        func value(_ v: UnsafePointer<th_layer_value>?) -> LayerValue?? {
            guard let v else { return .some(nil) }
            guard let x = LayerValueReader.read(v, problem: &problem), x.isFinite else {
                if problem == nil { problem = "a value is not finite" }
                return nil
            }
            return .some(x)
        }
        let kind: LayerAnimation.Kind
        switch a.kind {
        case TH_CA_BASIC, TH_CA_SPRING:
            guard let f = value(a.from), let t = value(a.to), let b = value(a.by) else { return nil }
            if a.kind == TH_CA_BASIC {
                kind = .basic(from: f, to: t, by: b)
            } else {
                guard a.mass > 0, a.stiffness > 0, a.damping >= 0 else {
                    problem = "a spring needs mass > 0, stiffness > 0 and damping >= 0 (got \(a.mass), \(a.stiffness), \(a.damping))"
                    return nil
                }
                kind = .spring(from: f, to: t, by: b, spring: .init(mass: a.mass, stiffness: a.stiffness, damping: a.damping,
                                                                     initialVelocity: a.initial_velocity))
            }
        case TH_CA_KEYFRAME:
            var k = LayerAnimation.Keyframes()
            guard a.value_count <= 100_000, a.key_time_count <= 100_000, a.timing_function_count <= 100_000 else {
                problem = "a keyframe animation has more than 100000 values, key times or timing functions"
                return nil
            }
            if a.value_count > 0 {
                guard let vs = a.values else { problem = "value_count is \(a.value_count) but values is NULL"; return nil }
                for i in 0..<Int(a.value_count) {
                    guard let x = value(vs + i), let x else { return nil }
                    k.values.append(x)
                }
            }
            if a.key_time_count > 0, let kt = a.key_times { k.keyTimes = (0..<Int(a.key_time_count)).map { kt[$0] } }
            if a.timing_function_count > 0, let tf = a.timing_functions {
                k.timingFunctions = (0..<Int(a.timing_function_count)).map { UnitBezier(tf[4 * $0], tf[4 * $0 + 1], tf[4 * $0 + 2], tf[4 * $0 + 3]) }
            }
            guard (k.keyTimes ?? []).allSatisfy(\.isFinite), (k.timingFunctions ?? []).allSatisfy({ [$0.p1x, $0.p1y, $0.p2x, $0.p2y].allSatisfy(\.isFinite) }) else {
                problem = "a key time or timing function is not finite"
                return nil
            }
            k.mode = KeyframeCalculationMode(optionBits: a.calculation_mode)
            k.rotationMode = a.rotation_mode == TH_ROTATION_AUTO ? .auto : a.rotation_mode == TH_ROTATION_AUTO_REVERSE ? .autoReverse : .none
            if a.path != nil || a.path_count > 0 {
                guard let p = LayerValueReader.path(a.path, a.path_count, problem: &problem), p.isFinite else {
                    if problem == nil { problem = "the path is not finite" }
                    return nil
                }
                k.path = p
            }
            kind = .keyframe(k)
        case TH_CA_GROUP:
            guard depth < maximumGroupDepth else { problem = "groups are nested more than \(maximumGroupDepth) deep"; return nil }
            guard a.animation_count <= 10_000 else { problem = "a group has more than 10000 animations"; return nil }
            var children: [LayerAnimation] = []
            if a.animation_count > 0 {
                guard let list = a.animations else { problem = "animation_count is \(a.animation_count) but animations is NULL"; return nil }
                for i in 0..<Int(a.animation_count) {
                    guard let c = list[i] else { problem = "group member \(i) is NULL"; return nil }
                    guard let child = read(c, depth: depth + 1, problem: &problem) else { return nil }
                    children.append(child)
                }
            }
            kind = .group(children)
        default:
            problem = "kind \(a.kind) is not a TH_CA_* kind"
            return nil
        }
        let fill: FillMode = [.removed, .forwards, .backwards, .both][Int(min(a.fill_mode, 3))]
        let timing = a.has_timing_function != 0
            ? UnitBezier(a.timing_function.0, a.timing_function.1, a.timing_function.2, a.timing_function.3) : nil
        if let timing, ![timing.p1x, timing.p1y, timing.p2x, timing.p2y].allSatisfy(\.isFinite) {
            problem = "the timing function is not finite"
            return nil
        }
        return LayerAnimation(kind: kind, keyPath: a.key_path.map { String(cString: $0) }, duration: a.duration, beginTime: a.begin_time,
                              timingFunction: timing, fillMode: fill, isRemovedOnCompletion: a.removed_on_completion != 0,
                              autoreverses: a.autoreverses != 0, repeatCount: a.repeat_count, repeatDuration: a.repeat_duration,
                              speed: a.speed, timeOffset: a.time_offset, isAdditive: a.additive != 0)
    }
}
