import TransHostCoordinators
import TransHostSupport

/// The controller tree's part of the scenario schema: container entries, embedded children,
/// presentation styles, the options that target a container, and the tree's own rules.
extension ScenarioReader {
    /// A controller entry: a plain controller, or a container (`"container": "navigation"` with
    /// a `stack`, `"tab"` with `tabs`), either with embedded `children`.
    func controllerSpec(id: String, _ c: JSONObject, known: (JSONField) throws -> String) throws -> Scenario.ControllerSpec {
        var container: Scenario.ContainerSpec?
        var defaultType: String?
        if let cf = c["container"] {
            let kind = try cf.string()
            switch kind {
            case "navigation":
                let s = try c.required("stack").array()
                guard !s.isEmpty else { throw c.error("stack", "a navigation controller needs a non-empty array of controller ids") }
                container = .navigation(stack: try s.map(known))
                defaultType = "UINavigationController"
            case "tab":
                let s = try c.required("tabs").array()
                guard !s.isEmpty else { throw c.error("tabs", "a tab bar controller needs a non-empty array of controller ids") }
                let tabs = try s.map(known)
                container = .tab(tabs: tabs, selected: try c["selected"]?.int(in: 0...(tabs.count - 1)) ?? 0)
                defaultType = "UITabBarController"
            default:
                throw cf.error("\"\(kind)\" is not navigation or tab (a plain controller has no \"container\")\(Spelling.hint(for: kind, among: ["navigation", "tab"]))")
            }
        }
        for key in ["stack", "tabs", "selected"] where c[key] != nil {
            let wanted = key == "stack" ? "navigation" : "tab"
            if case .navigation? = container, wanted == "navigation" { continue }
            if case .tab? = container, wanted == "tab" { continue }
            throw c.error(key, "belongs to a container entry: add \"container\": \"\(wanted)\"")
        }
        let type: String
        if let t = c["type"] { type = try t.string() } else if let d = defaultType { type = d } else { _ = try c.required("type"); type = "" }
        let view = try c["view"].map { try viewSpec($0, isRoot: true, depth: 0) } ?? Scenario.ViewSpec()
        var spec = Scenario.ControllerSpec(id: id, type: type, view: view, container: container)
        if container != nil, c["children"] != nil {
            throw c.error("children", "a navigation or tab bar controller's children are its stack or tabs; embed child controllers in a plain controller")
        }
        spec.children = try c["children"]?.array().map(known) ?? []
        if let f = c["modalPresentationStyle"] { spec.modalPresentationStyle = try style(f) }
        spec.definesPresentationContext = try c["definesPresentationContext"]?.bool() ?? false
        return spec
    }

    func style(_ f: JSONField) throws -> ModalPresentationStyle {
        let name = try f.string()
        guard let s = ModalPresentationStyle(name: name) else {
            let names = ModalPresentationStyle.allCases.map(\.name)
            throw f.error("\"\(name)\" is not one of \(names.joined(separator: ", "))\(Spelling.hint(for: name, among: names))")
        }
        return s
    }

    /// The keys only some actions take: `target` (a navigation or tab bar controller), `from`
    /// and `style` (present); `controller` of a dismiss is the controller it is sent to.
    func actionOptions(_ ao: JSONObject, action: String, known: (JSONField) throws -> String) throws -> Scenario.ActionOptions {
        var o = Scenario.ActionOptions()
        let targeted = ["push", "pop", "popToRoot", "popTo", "popToViewController", "setViewControllers", "select"]
        if let f = ao["target"] {
            guard targeted.contains(action) else { throw f.error("only \(targeted.joined(separator: ", ")) take a \"target\"") }
            o.target = try known(f)
        }
        for key in ["from", "style"] where ao[key] != nil && action != "present" {
            throw ao.error(key, "only present takes \"\(key)\"")
        }
        if let f = ao["from"] { o.from = try known(f) }
        if let f = ao["style"] { o.style = try style(f) }
        if action == "dismiss", let f = ao["controller"] { o.dismissing = try known(f) }
        if ao["controllers"] != nil && action != "setViewControllers" { throw ao.error("controllers", "only setViewControllers takes \"controllers\"") }
        return o
    }

    /// Every controller sits in at most one place of the tree (the root's containers, a container
    /// entry's stack or tabs, an entry's children), and no entry contains itself.
    func checkTree(_ controllers: [Scenario.ControllerSpec], root: Scenario.Root, rootField: JSONField, entries: JSONObject) throws {
        var place: [String: String] = [:]
        func put(_ id: String, _ where_: String, _ field: JSONField) throws {
            if let first = place[id] {
                throw field.error("controller \"\(id)\" is placed twice, \(first) and \(where_); a view controller can be in one container only")
            }
            place[id] = where_
        }
        switch root {
        case .navigation(let stack): for id in stack { try put(id, "on the root navigation stack", rootField) }
        case .tab(let tabs, _): for id in tabs { try put(id, "a tab of the root", rootField) }
        case .single(let id): try put(id, "the root", rootField)
        }
        let byID = Dictionary(controllers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for c in controllers.sorted(by: { $0.id < $1.id }) {
            for id in c.contained { try put(id, "inside \"\(c.id)\"", try entries.required(c.id)) }
        }
        for c in controllers {
            var seen: Set<String> = [], todo = c.contained
            while let id = todo.popLast() {
                if id == c.id { throw try entries.required(c.id).error("controller \"\(c.id)\" contains itself (through its stack, tabs or children)") }
                if seen.insert(id).inserted { todo += byID[id]?.contained ?? [] }
            }
        }
    }
}
