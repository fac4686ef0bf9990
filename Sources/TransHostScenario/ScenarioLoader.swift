import TransHostCoordinators
import TransHostCore
import TransHostSupport

extension Scenario {
    /// Reads and validates a scenario file (docs/scenario.md). Paths of images are resolved
    /// against the scenario's directory.
    public static func load(file: String) throws -> Scenario {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(file) } catch let e as FileIO.Failure { throw ScenarioError.unreadable(file: file, reason: e.reason) }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes: bytes) } catch let e as JSONSyntaxError {
            throw ScenarioError.syntax(file: file, line: e.line, column: e.column, reason: e.reason)
        }
        return try ScenarioReader(file: file).scenario(json)
    }
}

struct ScenarioReader {
    let file: String

    func fail(_ field: String, _ reason: String) -> ScenarioError { .invalid(file: file, field: field, reason: reason) }

    func object(_ v: JSONValue?, _ field: String) throws -> [String: JSONValue] {
        guard let v else { throw fail(field, "is required") }
        guard let o = v.objectValue else { throw fail(field, "expected an object, found \(v.kindDescription)") }
        return o
    }

    func string(_ v: JSONValue?, _ field: String) throws -> String {
        guard let v else { throw fail(field, "is required") }
        guard let s = v.stringValue, !s.isEmpty else { throw fail(field, "expected a non-empty string, found \(v.kindDescription)") }
        return s
    }

    func number(_ v: JSONValue?, _ field: String, default d: Double? = nil) throws -> Double {
        guard let v, v != .null else {
            if let d { return d }
            throw fail(field, "is required")
        }
        guard let n = v.doubleValue, n.isFinite else { throw fail(field, "expected a number, found \(v.kindDescription)") }
        return n
    }

    func bool(_ v: JSONValue?, _ field: String, default d: Bool) throws -> Bool {
        guard let v, v != .null else { return d }
        guard let b = v.boolValue else { throw fail(field, "expected true or false, found \(v.kindDescription)") }
        return b
    }

    func color(_ v: JSONValue?, _ field: String) throws -> Color? {
        guard let v, v != .null else { return nil }
        guard let s = v.stringValue, let c = Color(hex: s) else { throw fail(field, "expected a colour \"#rgb\", \"#rrggbb\" or \"#rrggbbaa\"") }
        return c
    }

    func rect(_ v: JSONValue?, _ field: String) throws -> Rect? {
        guard let v, v != .null else { return nil }
        guard let a = v.arrayValue, a.count == 4, let n = Optional(a.compactMap(\.doubleValue)), n.count == 4, n.allSatisfy(\.isFinite) else {
            throw fail(field, "expected [x, y, width, height]")
        }
        guard n[2] >= 0, n[3] >= 0 else { throw fail(field, "width and height must not be negative") }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    func scenario(_ json: JSONValue) throws -> Scenario {
        let o = try object(json, "(document)")
        if let f = o["format"], f.stringValue != Scenario.format { throw fail("format", "expected \"\(Scenario.format)\"") }
        let name = try string(o["name"], "name")
        var device = Device.standard
        if let d = o["device"] {
            if let s = d.stringValue {
                guard let named = Device.named(s) else {
                    throw fail("device", "unknown device \"\(s)\"; use one of \(Device.named.map(\.name).joined(separator: ", ")) or \"WxH\"")
                }
                device = named
            } else {
                let dobj = try object(d, "device")
                let w = try number(dobj["width"], "device.width"), h = try number(dobj["height"], "device.height")
                guard w > 0, h > 0, w <= 4096, h <= 4096 else { throw fail("device", "width and height must be in (0, 4096]") }
                let scale = Int(try number(dobj["scale"], "device.scale", default: 2))
                guard [1, 2, 3].contains(scale) else { throw fail("device.scale", "must be 1, 2 or 3") }
                device = Device(name: dobj["name"]?.stringValue ?? "\(Int(w))x\(Int(h))", width: w, height: h, scale: scale)
            }
        }
        var types: [String: String] = [:]
        if let t = o["types"] {
            for (k, v) in try object(t, "types") {
                types[k] = try string(v, "types.\(k)")
            }
        }
        let cobj = try object(o["controllers"], "controllers")
        var controllers: [Scenario.ControllerSpec] = []
        for id in cobj.keys.sorted() {
            let c = try object(cobj[id], "controllers.\(id)")
            let type = try string(c["type"], "controllers.\(id).type")
            let view = try c["view"].map { try viewSpec($0, "controllers.\(id).view", isRoot: true) } ?? Scenario.ViewSpec()
            controllers.append(.init(id: id, type: type, view: view))
        }
        func known(_ id: String, _ field: String) throws -> String {
            guard cobj[id] != nil else { throw fail(field, "no controller \"\(id)\" in \"controllers\"") }
            return id
        }
        let r = try object(o["root"], "root")
        let container = try string(r["container"], "root.container")
        let root: Scenario.Root
        switch container {
        case "navigation":
            guard let s = r["stack"]?.arrayValue, !s.isEmpty else { throw fail("root.stack", "a non-empty array of controller ids is required") }
            root = .navigation(stack: try s.enumerated().map { try known(try string($1, "root.stack[\($0)]"), "root.stack[\($0)]") })
        case "tab":
            guard let s = r["tabs"]?.arrayValue, !s.isEmpty else { throw fail("root.tabs", "a non-empty array of controller ids is required") }
            let tabs = try s.enumerated().map { try known(try string($1, "root.tabs[\($0)]"), "root.tabs[\($0)]") }
            let sel = Int(try number(r["selected"], "root.selected", default: 0))
            guard tabs.indices.contains(sel) else { throw fail("root.selected", "\(sel) is not a tab index (0..<\(tabs.count))") }
            root = .tab(tabs: tabs, selected: sel)
        case "single":
            root = .single(try known(try string(r["controller"], "root.controller"), "root.controller"))
        default:
            throw fail("root.container", "\"\(container)\" is not one of navigation, tab, single")
        }
        var script: [Scenario.Action] = []
        for (i, a) in (o["script"]?.arrayValue ?? []).enumerated() {
            let f = "script[\(i)]"
            let ao = try object(a, f)
            let action = try string(ao["action"], "\(f).action")
            let animated = try bool(ao["animated"], "\(f).animated", default: true)
            let g = try ao["gesture"].map { try gesture($0, "\(f).gesture") }
            if g != nil && !animated { throw fail("\(f).gesture", "an interactive transition must be animated") }
            switch action {
            case "push": script.append(.push(try known(try string(ao["controller"], "\(f).controller"), "\(f).controller"), animated: animated, gesture: g))
            case "pop": script.append(.pop(animated: animated, gesture: g))
            case "popToRoot": script.append(.popToRoot(animated: animated))
            case "present": script.append(.present(try known(try string(ao["controller"], "\(f).controller"), "\(f).controller"), animated: animated, gesture: g))
            case "dismiss": script.append(.dismiss(animated: animated, gesture: g))
            case "select":
                let idx = Int(try number(ao["index"], "\(f).index"))
                script.append(.select(idx, animated: animated, gesture: g))
            case "gesture":
                guard let g else { throw fail("\(f).gesture", "a gesture action needs a \"gesture\" object with \"samples\" (and \"release\")") }
                let go = try object(ao["gesture"], "\(f).gesture")
                func point(_ key: String) throws -> Point? {
                    guard let v = go[key] else { return nil }
                    guard let a = v.arrayValue, a.count == 2, let x = a[0].doubleValue, let y = a[1].doubleValue, x.isFinite, y.isFinite else {
                        throw fail("\(f).gesture.\(key)", "expected [x, y] in points")
                    }
                    return Point(x: x, y: y)
                }
                let start = try point("start") ?? Point(x: 0, y: 0)
                script.append(.gesture(g.script, start: start, velocity: try point("velocity")))
            case "wait":
                let s = try number(ao["seconds"], "\(f).seconds")
                guard s >= 0 else { throw fail("\(f).seconds", "must not be negative") }
                script.append(.wait(s))
            default:
                throw fail("\(f).action", "\"\(action)\" is not one of push, pop, popToRoot, present, dismiss, select, wait")
            }
        }
        return Scenario(name: name, device: device, types: types, controllers: controllers, root: root, script: script, source: file)
    }

    /// `{"samples": [[t, dx], [t, dx, dy], ...], "release": [t, dx(, dy)], "axis": "horizontal", "threshold": 0.5}`
    func gesture(_ v: JSONValue, _ field: String) throws -> Scenario.Gesture {
        let o = try object(v, field)
        func sample(_ v: JSONValue, _ f: String) throws -> PanSample {
            guard let a = v.arrayValue, (2...3).contains(a.count), let n = Optional(a.compactMap(\.doubleValue)), n.count == a.count,
                  n.allSatisfy(\.isFinite) else { throw fail(f, "expected [seconds, dx] or [seconds, dx, dy]") }
            return PanSample(time: n[0], x: n[1], y: n.count == 3 ? n[2] : 0)
        }
        guard let arr = o["samples"]?.arrayValue else { throw fail("\(field).samples", "an array of [seconds, dx] samples is required") }
        let samples = try arr.enumerated().map { try sample($1, "\(field).samples[\($0)]") }
        let release = try o["release"].map { try sample($0, "\(field).release") }
        let script = release.map { GestureScript(samples: samples, release: $0) } ?? GestureScript(samples: samples)
        if let problem = script.validate().first { throw fail(field, problem) }
        // Without axis and threshold, the routed animator's interaction decides (see Gesture).
        guard o["axis"] != nil || o["threshold"] != nil else { return Scenario.Gesture(script: script, rule: nil) }
        let axisName = o["axis"]?.stringValue ?? "horizontal"
        guard let axis = InteractionRule.Axis(rawValue: axisName) else { throw fail("\(field).axis", "\"\(axisName)\" is not horizontal or vertical") }
        let threshold = try number(o["threshold"], "\(field).threshold", default: 0.5)
        guard (0...1).contains(threshold) else { throw fail("\(field).threshold", "must be in [0, 1]") }
        return Scenario.Gesture(script: script, rule: InteractionRule(axis: axis, threshold: threshold))
    }

    func viewSpec(_ v: JSONValue, _ field: String, isRoot: Bool) throws -> Scenario.ViewSpec {
        let o = try object(v, field)
        var s = Scenario.ViewSpec()
        s.name = o["name"]?.stringValue
        s.frame = try rect(o["frame"], "\(field).frame")
        if !isRoot && s.frame == nil { throw fail("\(field).frame", "is required for a subview: [x, y, width, height]") }
        s.background = try color(o["background"], "\(field).background")
        s.cornerRadius = max(0, try number(o["cornerRadius"], "\(field).cornerRadius", default: 0))
        let alpha = try number(o["alpha"], "\(field).alpha", default: 1)
        guard (0...1).contains(alpha) else { throw fail("\(field).alpha", "must be in [0, 1]") }
        s.alpha = alpha
        s.hidden = try bool(o["hidden"], "\(field).hidden", default: false)
        s.clipsToBounds = try bool(o["clipsToBounds"], "\(field).clipsToBounds", default: false)
        if let t = o["text"] {
            let to = try object(t, "\(field).text")
            let align = to["alignment"]?.stringValue ?? "center"
            guard let a = TextAlignment(rawValue: align) else { throw fail("\(field).text.alignment", "\"\(align)\" is not one of left, center, right") }
            s.text = Scenario.TextSpec(string: try string(to["string"], "\(field).text.string"),
                                       size: try number(to["size"], "\(field).text.size", default: 17),
                                       color: try color(to["color"], "\(field).text.color") ?? .black, alignment: a)
        }
        if let img = o["image"] {
            let p = try string(img, "\(field).image")
            let path = PathUtil.join(PathUtil.dirname(PathUtil.absolute(file)), p)
            guard FileIO.exists(path) else {
                throw fail("\(field).image", "image file \(path) does not exist (paths are relative to the scenario's directory)")
            }
            s.image = path
        }
        s.borderWidth = max(0, try number(o["borderWidth"], "\(field).borderWidth", default: 0))
        s.borderColor = try color(o["borderColor"], "\(field).borderColor") ?? .black
        s.subviews = try (o["subviews"]?.arrayValue ?? []).enumerated().map { try viewSpec($1, "\(field).subviews[\($0)]", isRoot: false) }
        return s
    }
}
