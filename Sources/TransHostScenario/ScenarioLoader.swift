import TransHostCoordinators
import TransHostCore
import TransHostSupport

extension Scenario {
    /// Reads and validates a scenario file (docs/scenario.md). Paths of images are resolved
    /// against the scenario's directory. Errors are JSONInputErrors naming file, line:column
    /// and field.
    public static func load(file: String) throws -> Scenario {
        try ScenarioReader(document: try JSONDocument.read(file)).scenario()
    }

    /// Reads a scenario from text (as if it were the file `file`).
    public static func parse(_ text: String, file: String) throws -> Scenario {
        try ScenarioReader(document: try JSONDocument(file: file, text: text)).scenario()
    }
}

/// The scenario schema, read through the shared JSON field reader.
struct ScenarioReader {
    let document: JSONDocument
    var file: String { document.file }
    /// Views read so far (ScenarioLimits.maxViews); a class so the recursive read can count.
    private final class Counter { var views = 0 }
    private let counter = Counter()

    init(document: JSONDocument) { self.document = document }

    static let keys = ["format", "name", "device", "types", "controllers", "root", "script"]
    static let deviceKeys = ["name", "width", "height", "scale"]
    static let controllerKeys = ["type", "view", "container", "stack", "tabs", "selected", "children",
                                 "modalPresentationStyle", "definesPresentationContext"]
    static let rootKeys = ["container", "stack", "tabs", "selected", "controller"]
    /// One set for every action: a key that another action uses is harmless, a typo is not.
    static let actionKeys = ["action", "animated", "at", "controller", "controllers", "from", "gesture", "index", "seconds", "style", "target"]
    /// `start` and `velocity` belong to the standalone "gesture" action.
    static let gestureKeys = ["samples", "release", "axis", "threshold", "start", "velocity", "finishVelocity", "completionSpeed", "completionCurve"]
    static let viewKeys = ["name", "frame", "background", "cornerRadius", "alpha", "hidden", "clipsToBounds", "text", "image",
                           "borderWidth", "borderColor", "subviews"]
    static let textKeys = ["string", "size", "color", "alignment"]

    func color(_ f: JSONField?) throws -> Color? {
        guard let f else { return nil }
        guard let s = f.value.stringValue, let c = Color(hex: s) else { throw f.error("expected a colour \"#rgb\", \"#rrggbb\" or \"#rrggbbaa\"") }
        return c
    }

    func rect(_ f: JSONField?) throws -> Rect? {
        guard let f else { return nil }
        let n = try f.numbers(count: 4...4, expected: "[x, y, width, height]")
        guard n[2] >= 0, n[3] >= 0 else { throw f.error("width and height must not be negative") }
        let limit = ScenarioLimits.maxCoordinate
        guard n.allSatisfy({ abs($0) <= limit }) else {
            throw f.error("origin and size must each be within ±\(Int(limit)) points (the scenario limit)")
        }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    func scenario() throws -> Scenario {
        let o = try document.top.object(keys: Self.keys)
        if let f = o["format"], f.value.stringValue != Scenario.format { throw f.error("expected \"\(Scenario.format)\"") }
        let nameField = try o.required("name")
        let name = try nameField.string()
        if let problem = PathUtil.componentProblem(name) { throw nameField.error("the scenario name \(problem)") }
        var device = Device.standard
        if let d = o["device"] {
            if let s = d.value.stringValue {
                guard let named = Device.named(s) else {
                    throw d.error("unknown device \"\(s)\"; use one of \(Device.named.map(\.name).joined(separator: ", ")) or \"WxH\"\(Spelling.hint(for: s, among: Device.named.map(\.name)))")
                }
                if let problem = named.sizeProblem { throw d.error(problem) }
                device = named
            } else {
                let dobj = try d.object(keys: Self.deviceKeys)
                let w = try dobj.required("width").number(), h = try dobj.required("height").number()
                guard w > 0, h > 0, w <= ScenarioLimits.maxDevicePoints, h <= ScenarioLimits.maxDevicePoints else {
                    throw d.error("width and height must be in (0, \(Int(ScenarioLimits.maxDevicePoints))]")
                }
                let scaleField = dobj["scale"]
                let scale = try scaleField?.int(in: 1...3) ?? 2
                device = Device(name: try dobj["name"]?.text() ?? "\(Int(w))x\(Int(h))", width: w, height: h, scale: scale)
                if let problem = device.sizeProblem { throw d.error(problem) }
            }
        }
        var types: [String: String] = [:]
        if let t = o["types"] {
            let to = try t.object()
            for k in to.keys { types[k] = try to.required(k).string() }
        }
        let cobj = try o.required("controllers").object()
        func known(_ f: JSONField) throws -> String {
            let id = try f.string()
            guard cobj.fields[id] != nil else { throw f.error("no controller \"\(id)\" in \"controllers\"\(Spelling.hint(for: id, among: cobj.keys))") }
            return id
        }
        var controllers: [Scenario.ControllerSpec] = []
        for id in cobj.keys {
            controllers.append(try controllerSpec(id: id, try cobj.required(id).object(keys: Self.controllerKeys), known: known))
        }
        let r = try o.required("root").object(keys: Self.rootKeys)
        let containerField = try r.required("container")
        let container = try containerField.string()
        let root: Scenario.Root
        switch container {
        case "navigation":
            let s = try r.required("stack").array()
            guard !s.isEmpty else { throw r.error("stack", "a non-empty array of controller ids is required") }
            root = .navigation(stack: try s.map(known))
        case "tab":
            let s = try r.required("tabs").array()
            guard !s.isEmpty else { throw r.error("tabs", "a non-empty array of controller ids is required") }
            let tabs = try s.map(known)
            let sel = try r["selected"]?.int(in: 0...(tabs.count - 1)) ?? 0
            root = .tab(tabs: tabs, selected: sel)
        case "single":
            root = .single(try known(try r.required("controller")))
        default:
            throw containerField.error("\"\(container)\" is not one of navigation, tab, single\(Spelling.hint(for: container, among: ["navigation", "tab", "single"]))")
        }
        // Options may also name the root container the app makes for a navigation or tab root.
        let rootID: String? = { if case .navigation = root { return "navigation" }; if case .tab = root { return "tabs" }; return nil }()
        func knownOrRoot(_ f: JSONField) throws -> String {
            if let id = f.value.stringValue, id == rootID, cobj.fields[id] == nil { return id }
            return try known(f)
        }
        try checkTree(controllers, root: root, rootField: try r.required("container"), entries: cobj)
        var script: [Scenario.Action] = []
        var times: [Double?] = []
        var options: [Scenario.ActionOptions] = []
        for a in try o["script"]?.array(maxCount: ScenarioLimits.maxActions) ?? [] {
            let ao = try a.object(keys: Self.actionKeys)
            times.append(try ao["at"].map { try time($0) })
            let actionField = try ao.required("action")
            let action = try actionField.string()
            let animated = try ao["animated"]?.bool() ?? true
            let g = try ao["gesture"].map { try gesture($0) }
            if g != nil && !animated { throw ao.error("gesture", "an interactive transition must be animated") }
            options.append(try actionOptions(ao, action: action, known: knownOrRoot))
            switch action {
            case "push": script.append(.push(try known(try ao.required("controller")), animated: animated, gesture: g))
            case "pop": script.append(.pop(animated: animated, gesture: g))
            case "popToRoot": script.append(.popToRoot(animated: animated, gesture: g))
            case "popTo", "popToViewController": script.append(.popTo(try known(try ao.required("controller")), animated: animated, gesture: g))
            case "setViewControllers":
                let list = try ao.required("controllers").array()
                guard !list.isEmpty else { throw ao.error("controllers", "a non-empty array of controller ids is required (the new stack, bottom first)") }
                script.append(.setViewControllers(try list.map(known), animated: animated, gesture: g))
            case "present": script.append(.present(try known(try ao.required("controller")), animated: animated, gesture: g))
            case "dismiss": script.append(.dismiss(animated: animated, gesture: g))
            case "select":
                // Checked against the tab count when it plays; here only that it is an index at all.
                script.append(.select(try ao.required("index").int(in: 0...Int(Int32.max)), animated: animated, gesture: g))
            case "gesture":
                guard let g, let gf = ao["gesture"] else {
                    throw ao.error("gesture", "a gesture action needs a \"gesture\" object with \"samples\" (and \"release\")")
                }
                let go = try gf.object(keys: Self.gestureKeys)
                func point(_ key: String) throws -> Point? {
                    guard let f = go[key] else { return nil }
                    let n = try f.numbers(count: 2...2, expected: "[x, y] in points")
                    guard n.allSatisfy({ abs($0) <= ScenarioLimits.maxCoordinate }) else {
                        throw f.error("must be within ±\(Int(ScenarioLimits.maxCoordinate)) points")
                    }
                    return Point(x: n[0], y: n[1])
                }
                script.append(.gesture(g.script, start: try point("start") ?? Point(x: 0, y: 0), velocity: try point("velocity")))
            case "wait":
                // A wait is time passing between actions, not something that arrives.
                if ao["at"] != nil { throw ao.error("at", "a wait cannot be timed; give the next action an \"at\" instead") }
                script.append(.wait(try ao.required("seconds").number(in: 0...ScenarioLimits.maxSeconds)))
            default:
                let actions = ["push", "pop", "popToRoot", "popTo", "setViewControllers", "present", "dismiss", "select", "gesture", "wait"]
                throw actionField.error("\"\(action)\" is not one of \(actions.joined(separator: ", "))\(Spelling.hint(for: action, among: actions))")
            }
        }
        var scenario = Scenario(name: name, device: device, types: types, controllers: controllers, root: root, script: script, source: file)
        scenario.times = times
        scenario.options = options
        return scenario
    }

    /// A time: `"0.2s"`, `"200ms"` or a number of seconds; finite and not negative.
    func time(_ f: JSONField) throws -> Double {
        var seconds: Double?
        let v = f.value
        if let n = v.doubleValue { seconds = n }
        else if let text = v.stringValue {
            if text.hasSuffix("ms") { seconds = Double(text.dropLast(2)).map { $0 / 1000 } }
            else if text.hasSuffix("s") { seconds = Double(text.dropLast()) }
        }
        guard let s = seconds, s.isFinite, s >= 0, s <= ScenarioLimits.maxSeconds else {
            throw f.error("expected a time such as \"0.2s\", \"200ms\" or 0.2 (seconds since the script began), from 0 to \(Int(ScenarioLimits.maxSeconds)) s")
        }
        return s
    }

    /// `{"samples": [[t, dx], [t, dx, dy], ...], "release": [t, dx(, dy)], "axis": "horizontal", "threshold": 0.5}`
    func gesture(_ field: JSONField) throws -> Scenario.Gesture {
        let o = try field.object(keys: Self.gestureKeys)
        func sample(_ f: JSONField) throws -> PanSample {
            let n = try f.numbers(count: 2...3, expected: "[seconds, dx] or [seconds, dx, dy]")
            guard abs(n[0]) <= ScenarioLimits.maxSeconds, n.dropFirst().allSatisfy({ abs($0) <= ScenarioLimits.maxCoordinate }) else {
                throw f.error("times must be within \(Int(ScenarioLimits.maxSeconds)) s and offsets within ±\(Int(ScenarioLimits.maxCoordinate)) points")
            }
            return PanSample(time: n[0], x: n[1], y: n.count == 3 ? n[2] : 0)
        }
        let samples = try o.required("samples").array(maxCount: ScenarioLimits.maxGestureSamples).map(sample)
        let release = try o["release"].map(sample)
        var script = release.map { GestureScript(samples: samples, release: $0) } ?? GestureScript(samples: samples)
        if let v = o["velocity"] {
            let n = try v.numbers(count: 1...2, expected: "[vx] or [vx, vy] in points per second")
            script.velocity = Point(x: n[0], y: n.count == 2 ? n[1] : 0)
        }
        if let problem = script.validate().first { throw field.error(problem) }
        var g = Scenario.Gesture(script: script, rule: nil)
        if let v = o["completionSpeed"] {
            let speed = try v.number(in: 0...1000)
            guard speed > 0 else { throw v.error("must be a number above 0") }
            g.completionSpeed = speed
        }
        if let v = o["completionCurve"] {
            let name = try v.string()
            let curves: [String: TimingCurve] = ["easeInOut": .easeInOut, "easeIn": .easeIn, "easeOut": .easeOut, "linear": .linear]
            guard let c = curves[name] else { throw v.error("\"\(name)\" is not one of easeInOut, easeIn, easeOut, linear") }
            g.completionCurve = c
        }
        // Without axis, threshold and finishVelocity, the routed animator's interaction decides (see Gesture).
        guard o["axis"] != nil || o["threshold"] != nil || o["finishVelocity"] != nil else { return g }
        let axisName = try o["axis"]?.text() ?? "horizontal"
        guard let axis = InteractionRule.Axis(rawValue: axisName) else { throw o.error("axis", "\"\(axisName)\" is not horizontal or vertical") }
        let threshold = try o["threshold"]?.number(in: 0...1) ?? 0.5
        var finishVelocity: Double?
        if let v = o["finishVelocity"] {
            let fv = try v.number(in: 0...ScenarioLimits.maxCoordinate)
            guard fv > 0 else { throw v.error("must be a number of points per second above 0") }
            finishVelocity = fv
        }
        g.rule = InteractionRule(axis: axis, threshold: threshold, finishVelocity: finishVelocity)
        return g
    }

    func viewSpec(_ field: JSONField, isRoot: Bool, depth: Int) throws -> Scenario.ViewSpec {
        let o = try field.object(keys: Self.viewKeys)
        counter.views += 1
        guard counter.views <= ScenarioLimits.maxViews else {
            throw field.error("the scenario has more than \(ScenarioLimits.maxViews) views, the limit")
        }
        var s = Scenario.ViewSpec()
        s.name = try o["name"]?.text()
        s.frame = try rect(o["frame"])
        if !isRoot && s.frame == nil { throw o.error("frame", "is required for a subview: [x, y, width, height]") }
        s.background = try color(o["background"])
        s.cornerRadius = max(0, try o["cornerRadius"]?.number(in: -ScenarioLimits.maxCornerRadius...ScenarioLimits.maxCornerRadius) ?? 0)
        s.alpha = try o["alpha"]?.number(in: 0...1) ?? 1
        s.hidden = try o["hidden"]?.bool() ?? false
        s.clipsToBounds = try o["clipsToBounds"]?.bool() ?? false
        if let t = o["text"] {
            let to = try t.object(keys: Self.textKeys)
            let align = try to["alignment"]?.text() ?? "center"
            guard let a = TextAlignment(rawValue: align) else { throw to.error("alignment", "\"\(align)\" is not one of left, center, right") }
            s.text = Scenario.TextSpec(string: try to.required("string").string(), size: try to["size"]?.number(in: 0...ScenarioLimits.maxTextSize) ?? 17,
                                       color: try color(to["color"]) ?? .black, alignment: a)
        }
        if let img = o["image"] {
            let p = try img.string()
            let path = PathUtil.join(PathUtil.dirname(PathUtil.absolute(file)), p)
            guard FileIO.exists(path) else {
                throw img.error("image file \(path) does not exist (paths are relative to the scenario's directory)")
            }
            if let problem = FileIO.regularFileProblem(path) { throw img.error("image file \(path) \(problem)") }
            guard let (w, h) = FileIO.pngSize(path) else { throw img.error("image file \(path) is not a PNG file") }
            guard w * h <= ScenarioLimits.maxImagePixels, w <= ScenarioLimits.maxImagePixels, h <= ScenarioLimits.maxImagePixels else {
                throw img.error("image file \(path) is \(w)x\(h) pixels; at most \(ScenarioLimits.maxImagePixels >> 20) M pixels can be drawn")
            }
            s.image = path
        }
        s.borderWidth = max(0, try o["borderWidth"]?.number(in: -ScenarioLimits.maxBorderWidth...ScenarioLimits.maxBorderWidth) ?? 0)
        s.borderColor = try color(o["borderColor"]) ?? .black
        if let subviews = o["subviews"] {
            guard depth < ScenarioLimits.maxNesting else {
                throw subviews.error("subviews nest deeper than \(ScenarioLimits.maxNesting) levels, the limit")
            }
            s.subviews = try subviews.array().map { try viewSpec($0, isRoot: false, depth: depth + 1) }
        }
        return s
    }
}
