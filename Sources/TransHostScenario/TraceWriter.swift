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

    public static func json(_ r: RunResult, settings: Settings) -> JSONValue {
        let d = r.scenario.device
        var root: [String: JSONValue] = [
            "format": .string(format),
            "scenario": .string(r.scenario.name),
            "device": ["name": .string(d.name), "width": .number(d.width), "height": .number(d.height), "scale": .number(Double(settings.scale))],
            "fps": .number(Double(r.fps)),
            "transitions": .array(r.transitions.map { transition($0, breaches: r.breaches(ofTransition: $0.record.index)) }),
            "final": [
                "stack": .array(r.finalStack.map(JSONValue.string)),
                "selected": r.finalSelected.map { .number(Double($0)) } ?? .null,
                "presented": .array(r.finalPresented.map(JSONValue.string)),
            ],
        ]
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

    static func transition(_ t: TransitionTrace, breaches: [ContractBreach]) -> JSONValue {
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
            "frames": .array(t.frames.map(frame)),
            "after": frame(t.after),
        ]
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
        try FileIO.writeAtomically(path, JSONWriter.write(json(r, settings: settings)))
    }
}
