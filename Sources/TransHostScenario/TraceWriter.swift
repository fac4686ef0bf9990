import TransHostCore
import TransHostCoordinators
import TransHostSupport

/// Encodes a run as `transhost-trace/1` (docs/trace.md): keys sorted, floats with at most 6
/// decimals, so the same run gives the same bytes.
public enum TraceWriter {
    public static let format = "transhost-trace/1"

    /// What the trace records beside the played result: the pictures' scale (the device's unless
    /// `--scale` chose another) and the `--param` values the plugins were configured with.
    public struct Settings: Equatable, Sendable {
        public var scale: Int
        /// Values by plugin, then parameter name, as the user's text in its shortest form.
        public var parameters: [String: [String: String]]
        public init(scale: Int, parameters: [String: [String: String]] = [:]) { self.scale = scale; self.parameters = parameters }
    }

    public static func json(_ r: RunResult, settings: Settings) -> JSONValue { json(r, settings: settings, frames: true) }

    /// The trace's tree; without `frames`, each transition lacks its "frames" and "after" (which
    /// `encode` writes without building their trees).
    static func json(_ r: RunResult, settings: Settings, frames: Bool) -> JSONValue {
        let d = r.scenario.device
        var root: [String: JSONValue] = [
            "format": .string(format),
            "scenario": .string(r.scenario.name),
            "device": ["name": .string(d.name), "width": .number(d.width), "height": .number(d.height), "scale": .number(Double(settings.scale))],
            "fps": .number(Double(r.fps)),
            "transitions": .array(r.transitions.map { transition($0, breaches: r.breaches(ofTransition: $0.record.index), frames: frames) }),
            "final": [
                "stack": .array(r.finalStack.map(JSONValue.string)),
                "selected": r.finalSelected.map { .number(Double($0)) } ?? .null,
                "presented": .array(r.finalPresented.map(JSONValue.string)),
            ],
        ]
        // Only scenarios with a controller tree have it, so other traces keep their bytes.
        if let tree = r.finalTree, var final = root["final"]?.objectValue {
            final["tree"] = tree
            root["final"] = .object(final)
        }
        if !r.warnings.isEmpty { root["warnings"] = .array(r.warnings.map(JSONValue.string)) }
        if !r.errors.isEmpty { root["errors"] = .array(r.errors.map(JSONValue.string)) }
        if !r.unattributedBreaches.isEmpty { root["breaches"] = .array(r.unattributedBreaches.map(breach)) }
        if !r.logs.isEmpty { root["logs"] = .array(r.logs.map(JSONValue.string)) }
        if !r.pluginFailures.isEmpty { root["pluginFailures"] = .array(r.pluginFailures.map(failure)) }
        if !settings.parameters.isEmpty {
            root["parameters"] = .object(settings.parameters.mapValues { .object($0.mapValues(JSONValue.string)) })
        }
        return .object(root)
    }

    /// A plugin failure (only present when one happened; older traces never have it).
    public static func failure(_ f: PluginFailure) -> JSONValue {
        ["plugin": .string(f.plugin), "call": .string(f.call), "cause": .string(f.cause),
         "transition": f.transition.map { .number(Double($0)) } ?? .null, "message": .string(f.message)]
    }

    /// The note on a transition played with the default because of a plugin failure.
    public static func failureNote(_ n: TransitionFailureNote) -> JSONValue {
        var o = failure(n.failure).objectValue ?? [:]
        o["kind"] = .string(n.failedHere ? "plugin-failed" : "replaced-after-failure")
        return .object(o)
    }

    static func transition(_ t: TransitionTrace, breaches: [ContractBreach], frames: Bool = true) -> JSONValue {
        let rec = t.record
        var o: [String: JSONValue] = [
            "index": .number(Double(t.index)),
            "container": .string(rec.container.rawValue),
            "operation": .string(rec.operation.rawValue),
            "from": .string(rec.fromType),
            "to": .string(rec.toType),
            "animator": rec.animator.map { ["plugin": .string($0.plugin), "id": .string($0.id)] } ?? .null,
            "interactive": .bool(rec.interactive),
            "duration": .number(rec.duration),
            "start": .number(rec.start),
            "end": .number(rec.end),
            "outcome": .string(rec.outcome.rawValue),
            "breaches": .array(breaches.map(breach)),
            "appearance": .array(rec.appearance.map {
                ["controller": .string($0.controller), "type": .string($0.type), "kind": .string($0.kind.rawValue),
                 "animated": .bool($0.animated), "time": .number($0.time)]
            }),
        ]
        if frames {
            o["frames"] = .array(t.frames.map(frame))
            o["after"] = frame(t.after)
        }
        // Written only when the host put something back, so a clean animator's trace is unchanged.
        if !rec.restored.isEmpty { o["restored"] = .array(rec.restored.map(JSONValue.string)) }
        if !rec.repairs.isEmpty {
            o["repairs"] = .array(rec.repairs.map { ["kind": .string($0.kind), "subject": .string($0.subject), "message": .string($0.message)] })
        }
        if let n = t.pluginFailure { o["pluginFailure"] = failureNote(n) }
        return .object(o)
    }

    static func breach(_ b: ContractBreach) -> JSONValue {
        ["plugin": .string(b.plugin), "kind": .string(b.kind), "message": .string(b.message)]
    }

    static func frame(_ f: TraceFrame) -> JSONValue {
        ["t": .number(f.t), "views": .array(f.nodes.map(node))]
    }

    static func node(_ n: PresentationNode) -> JSONValue {
        let s = n.state
        var o: [String: JSONValue] = [
            "id": .string(n.view.id),
            "name": .string(n.view.name),
            "parent": n.parentID.map(JSONValue.string) ?? .null,
            "z": .number(Double(n.z)),
            "bounds": .array([s.bounds.minX, s.bounds.minY, s.bounds.width, s.bounds.height].map(JSONValue.number)),
            "position": .array([s.position.x, s.position.y].map(JSONValue.number)),
            "anchor": .array([s.anchorPoint.x, s.anchorPoint.y].map(JSONValue.number)),
            "transform": .array(s.transform.values.map(JSONValue.number)),
            "alpha": .number(s.alpha),
            "hidden": .bool(n.isHidden),
        ]
        if n.view.isSnapshot { o["snapshot"] = .bool(true) }
        if let l = n.layers { o["layer"] = layer(l) }
        if n.view.isStretched(toBounds: s.bounds), let size = n.view.resizableSize {
            let i = n.view.capInsets
            o["stretch"] = ["size": .array([size.width, size.height].map(JSONValue.number)),
                            "capInsets": .array([i.top, i.left, i.bottom, i.right].map(JSONValue.number))]
        }
        return .object(o)
    }

    /// Writes the trace to `path` atomically.
    public static func write(_ r: RunResult, settings: Settings, to path: String) throws {
        try FileIO.writeAtomically(path, encode(r, settings: settings))
    }

    /// The trace's bytes: `JSONWriter.write(json(r, settings:))`, without building the tree of
    /// its frames, which hold nearly all of a trace (a long scenario's tree takes several times
    /// the memory of its text, and the time to build it).
    public static func encode(_ r: RunResult, settings: Settings) -> [UInt8] {
        guard case .object(var root) = json(r, settings: settings, frames: false),
              case .array(let transitions) = root.removeValue(forKey: "transitions") else { return [] }
        var out = JSONWriter.Output(capacity: 1 << 20)
        out.object((Array(root.keys) + ["transitions"]).sorted(), indent: 0) { out, key, indent in
            guard key == "transitions" else { out.value(root[key]!, indent: indent); return }
            out.array(count: transitions.count, indent: indent) { out, k, indent in
                guard case .object(let o) = transitions[k] else { return }
                let t = r.transitions[k]
                out.object((Array(o.keys) + ["after", "frames"]).sorted(), indent: indent) { out, key, indent in
                    switch key {
                    case "frames": out.array(count: t.frames.count, indent: indent) { out, f, indent in encode(t.frames[f], into: &out, indent: indent) }
                    case "after": encode(t.after, into: &out, indent: indent)
                    default: out.value(o[key]!, indent: indent)
                    }
                }
            }
        }
        out.newline()
        return out.bytes
    }

    /// One frame, as `frame(f)` would be written.
    static func encode(_ f: TraceFrame, into out: inout JSONWriter.Output, indent: Int?) {
        out.object(["t", "views"], indent: indent) { out, key, indent in
            if key == "t" { out.number(f.t); return }
            out.array(count: f.nodes.count, indent: indent) { out, k, indent in encode(f.nodes[k], into: &out, indent: indent) }
        }
    }

    /// One view, as `node(n)` would be written (its keys in sorted order), member by member:
    /// a trace is mostly views, so none of their keys is looked up or escaped here.
    static func encode(_ n: PresentationNode, into out: inout JSONWriter.Output, indent: Int?) {
        let s = n.state
        let inner = indent.map { $0 + 2 }
        out.member("alpha", first: true, indent: indent); out.number(s.alpha)
        out.member("anchor", first: false, indent: indent); out.numbers(s.anchorPoint.x, s.anchorPoint.y, indent: inner)
        out.member("bounds", first: false, indent: indent)
        out.numbers(s.bounds.minX, s.bounds.minY, s.bounds.width, s.bounds.height, indent: inner)
        out.member("hidden", first: false, indent: indent); out.bool(n.isHidden)
        out.member("id", first: false, indent: indent); out.string(n.view.id)
        if let layers = n.layers { out.member("layer", first: false, indent: indent); out.value(layer(layers), indent: inner) }
        out.member("name", first: false, indent: indent); out.string(n.view.name)
        out.member("parent", first: false, indent: indent)
        if let parent = n.parentID { out.string(parent) } else { out.value(.null, indent: inner) }
        out.member("position", first: false, indent: indent); out.numbers(s.position.x, s.position.y, indent: inner)
        if n.view.isSnapshot { out.member("snapshot", first: false, indent: indent); out.bool(true) }
        if n.view.isStretched(toBounds: s.bounds), let size = n.view.resizableSize {
            let i = n.view.capInsets
            out.member("stretch", first: false, indent: indent)
            out.value(["size": .array([size.width, size.height].map(JSONValue.number)),
                       "capInsets": .array([i.top, i.left, i.bottom, i.right].map(JSONValue.number))], indent: inner)
        }
        let m = s.transform
        out.member("transform", first: false, indent: indent)
        out.numbers(count: 16, indent: inner) { k in
            switch k {
            case 0: m.m11; case 1: m.m12; case 2: m.m13; case 3: m.m14
            case 4: m.m21; case 5: m.m22; case 6: m.m23; case 7: m.m24
            case 8: m.m31; case 9: m.m32; case 10: m.m33; case 11: m.m34
            case 12: m.m41; case 13: m.m42; case 14: m.m43; default: m.m44
            }
        }
        out.member("z", first: false, indent: indent); out.number(Double(n.z))
        out.endObject(indent: indent)
    }
}
