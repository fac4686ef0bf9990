import TransHostCore
import TransHostCoordinators
import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostRun
import TransHostScenario
import TransHostSupport

/// What a playback worker sends back: the played run (transitions with every frame, the final
/// state, warnings, breaches, plugin logs) and what it learnt about loading plugins.
///
/// Each distinct sampled view (id, name, content, version, clipping, snapshot flag) is sent
/// once; frames refer to them by number.
struct WorkerResult {
    var run: RunResult
    /// Validation results recorded while loading (plugin, nil = passed / failure reason).
    var validations: [(plugin: String, failure: String?)]
}

enum PlayResultCodec {
    static let magic: UInt32 = 0x5448_5031 // "THP1"

    static func encode(_ r: RunResult, validations: [(plugin: String, failure: String?)]) -> [UInt8] {
        var w = ByteWriter(capacity: 1 << 20)
        w.u32(magic)
        w.u32(UInt32(validations.count))
        for v in validations { w.string(v.plugin); w.optionalString(v.failure) }
        // Distinct views by value, found through their shared storage: a view's values are
        // hashed once, not once per frame that shows it.
        var viewIndex: [SampledView: UInt32] = [:]
        var byStorage: [ObjectIdentifier: UInt32] = [:]
        var views: [SampledView] = []
        func index(_ v: SampledView) -> UInt32 {
            if let i = byStorage[v.storageIdentity] { return i }
            let i: UInt32
            if let known = viewIndex[v] { i = known } else {
                i = UInt32(views.count)
                viewIndex[v] = i
                views.append(v)
            }
            byStorage[v.storageIdentity] = i
            return i
        }
        for t in r.transitions {
            for f in t.frames + [t.after] {
                for n in f.nodes { _ = index(n.view) }
            }
        }
        w.u32(UInt32(views.count))
        for v in views { look(v, &w) }
        w.u32(UInt32(r.transitions.count))
        for t in r.transitions {
            w.int(t.index)
            record(t.record, &w)
            w.bool(t.pluginFailure != nil)
            if let n = t.pluginFailure { w.bool(n.failedHere); failure(n.failure, &w) }
            w.u32(UInt32(t.frames.count + 1))
            for f in t.frames + [t.after] {
                w.f64(f.t)
                w.u32(UInt32(f.nodes.count))
                for n in f.nodes {
                    w.u32(index(n.view))
                    w.optionalString(n.parentID)
                    w.int(n.z)
                    w.int(n.depth)
                    w.bool(n.isHidden)
                    state(n.state, &w)
                    layers(n.layers, &w)
                }
            }
        }
        w.strings(r.finalStack)
        w.bool(r.finalSelected != nil)
        w.int(r.finalSelected ?? 0)
        w.strings(r.finalPresented)
        w.optionalString(r.finalTree.map { JSONWriter.write($0, pretty: false) })
        w.u32(UInt32(r.events.count))
        for e in r.events { event(e, &w) }
        return w.bytes
    }

    /// Rebuilds the run for `scenario` (the supervisor's copy, identical to the worker's).
    static func decode(_ bytes: [UInt8], scenario: Scenario, fps: Int) throws -> WorkerResult {
        var r = ByteReader(bytes)
        guard try r.u32() == magic else { throw ByteReader.Damaged(description: "the worker's result does not start with the protocol's magic number") }
        var validations: [(String, String?)] = []
        for _ in 0..<(try r.count()) { validations.append((try r.string(), try r.optionalString())) }
        var views: [SampledView] = []
        for _ in 0..<(try r.count()) { views.append(try look(&r)) }
        var transitions: [TransitionTrace] = []
        for _ in 0..<(try r.count()) {
            let index = try r.int()
            let rec = try record(&r)
            var note: TransitionFailureNote?
            if try r.bool() { note = TransitionFailureNote(failedHere: try r.bool(), failure: try failure(&r)) }
            var frames: [TraceFrame] = []
            let frameCount = try r.count()
            frames.reserveCapacity(frameCount)
            for _ in 0..<frameCount {
                let t = try r.f64()
                let n = try r.count()
                var nodes: [PresentationNode] = []
                nodes.reserveCapacity(n)
                for _ in 0..<n {
                    let vi = Int(try r.u32())
                    guard vi < views.count else { throw ByteReader.Damaged(description: "the worker's result names view \(vi) of \(views.count)") }
                    let parent = try r.optionalString()
                    let z = try r.int(), depth = try r.int(), hidden = try r.bool()
                    let st = try state(&r)
                    nodes.append(PresentationNode(view: views[vi], parentID: parent, z: z, depth: depth, state: st, isHidden: hidden,
                                                  layers: try layers(&r)))
                }
                frames.append(TraceFrame(t: t, nodes: nodes))
            }
            // The last frame sent is `after`, the window once the transition ended.
            guard let after = frames.popLast() else { throw ByteReader.Damaged(description: "the worker's result has a transition without its after-frame") }
            transitions.append(TransitionTrace(index: index, record: rec, frames: frames, after: after, pluginFailure: note))
        }
        let stack = try r.strings()
        let hasSelected = try r.bool()
        let selected = try r.int()
        let presented = try r.strings()
        let tree = try r.optionalString().map { try JSONParser.parse($0) }
        var events: [RunEvent] = []
        for _ in 0..<(try r.count()) { events.append(try event(&r)) }
        guard r.isAtEnd else { throw ByteReader.Damaged(description: "the worker's result has \(bytes.count - r.offset) bytes past its end") }
        var run = RunResult(scenario: scenario, fps: fps, transitions: transitions, finalStack: stack, finalSelected: hasSelected ? selected : nil,
                            finalPresented: presented, events: events)
        run.finalTree = tree
        return WorkerResult(run: run, validations: validations)
    }

    // MARK: parts

    static func look(_ l: SampledView, _ w: inout ByteWriter) {
        w.string(l.id); w.string(l.name); w.bool(l.isSnapshot); w.int(l.contentVersion); w.bool(l.clipsToBounds)
        let c = l.content
        w.bool(c.text != nil)
        if let t = c.text { w.string(t.string); w.f64(t.fontSize); color(t.color, &w); w.string(t.alignment.rawValue) }
        w.optionalString(c.imagePath)
        w.f64(c.borderWidth); color(c.borderColor, &w)
        w.bool(l.resizableSize != nil)
        if let n = l.resizableSize { w.f64(n.width); w.f64(n.height) }
        w.f64(l.capInsets.top); w.f64(l.capInsets.left); w.f64(l.capInsets.bottom); w.f64(l.capInsets.right)
    }

    static func look(_ r: inout ByteReader) throws -> SampledView {
        let id = try r.string(), name = try r.string(), snapshot = try r.bool(), version = try r.int(), clips = try r.bool()
        var content = ViewContent()
        if try r.bool() {
            let s = try r.string(), size = try r.f64(), c = try color(&r), a = try r.string()
            content.text = TextContent(string: s, fontSize: size, color: c, alignment: TextAlignment(rawValue: a) ?? .center)
        }
        content.imagePath = try r.optionalString()
        content.borderWidth = try r.f64()
        content.borderColor = try color(&r)
        let resizable = try r.bool() ? Size(width: try r.f64(), height: try r.f64()) : nil
        let insets = EdgeInsets(top: try r.f64(), left: try r.f64(), bottom: try r.f64(), right: try r.f64())
        return SampledView(id: id, name: name, content: content, contentVersion: version, clipsToBounds: clips, isSnapshot: snapshot,
                           resizableSize: resizable, capInsets: insets)
    }

    static func color(_ c: Color, _ w: inout ByteWriter) { w.f64(c.red); w.f64(c.green); w.f64(c.blue); w.f64(c.alpha) }
    static func color(_ r: inout ByteReader) throws -> Color {
        Color(red: try r.f64(), green: try r.f64(), blue: try r.f64(), alpha: try r.f64())
    }

    static func state(_ s: PresentationState, _ w: inout ByteWriter) {
        w.f64(s.bounds.origin.x); w.f64(s.bounds.origin.y); w.f64(s.bounds.size.width); w.f64(s.bounds.size.height)
        w.f64(s.position.x); w.f64(s.position.y); w.f64(s.anchorPoint.x); w.f64(s.anchorPoint.y)
        for v in s.transform.values { w.f64(v) }
        w.f64(s.alpha)
        w.bool(s.backgroundColor != nil)
        if let c = s.backgroundColor { color(c, &w) }
        w.f64(s.cornerRadius)
    }

    static func state(_ r: inout ByteReader) throws -> PresentationState {
        let bounds = Rect(origin: Point(x: try r.f64(), y: try r.f64()), size: Size(width: try r.f64(), height: try r.f64()))
        let position = Point(x: try r.f64(), y: try r.f64())
        let anchor = Point(x: try r.f64(), y: try r.f64())
        var m: [Double] = []
        m.reserveCapacity(16)
        for _ in 0..<16 { m.append(try r.f64()) }
        let alpha = try r.f64()
        let background = try r.bool() ? try color(&r) : nil
        return PresentationState(bounds: bounds, position: position, anchorPoint: anchor, transform: Transform3D(m), alpha: alpha,
                                 backgroundColor: background, cornerRadius: try r.f64())
    }

    static func breach(_ b: ContractBreach, _ w: inout ByteWriter) { w.string(b.plugin); w.string(b.kind); w.string(b.message) }
    static func breach(_ r: inout ByteReader) throws -> ContractBreach {
        ContractBreach(plugin: try r.string(), kind: try r.string(), message: try r.string())
    }

    static func event(_ e: RunEvent, _ w: inout ByteWriter) {
        switch e {
        case .loadFailure(let plugin, let message): w.u8(0); w.string(plugin); w.string(message)
        case .warning(let m): w.u8(1); w.string(m)
        case .log(let l): w.u8(2); w.string(l)
        case .breach(let b, let t): w.u8(3); breach(b, &w); w.bool(t != nil); w.int(t ?? 0)
        case .pluginFailure(let f): w.u8(4); failure(f, &w)
        case .error(let m): w.u8(5); w.string(m)
        }
    }

    static func event(_ r: inout ByteReader) throws -> RunEvent {
        switch try r.u8() {
        case 0: return .loadFailure(plugin: try r.string(), message: try r.string())
        case 1: return .warning(try r.string())
        case 2: return .log(try r.string())
        case 3:
            let b = try breach(&r), has = try r.bool(), t = try r.int()
            return .breach(b, transition: has ? t : nil)
        case 4: return .pluginFailure(try failure(&r))
        case 5: return .error(try r.string())
        case let k: throw ByteReader.Damaged(description: "the worker's result has an unknown event kind \(k)")
        }
    }

    static func failure(_ f: PluginFailure, _ w: inout ByteWriter) {
        w.string(f.plugin); w.string(f.call); w.string(f.cause); w.bool(f.transition != nil); w.int(f.transition ?? 0); w.string(f.message)
    }
    static func failure(_ r: inout ByteReader) throws -> PluginFailure {
        let plugin = try r.string(), call = try r.string(), cause = try r.string(), has = try r.bool(), t = try r.int()
        return PluginFailure(plugin: plugin, call: call, cause: cause, transition: has ? t : nil, message: try r.string())
    }

    static func record(_ t: TransitionRecord, _ w: inout ByteWriter) {
        w.int(t.index); w.string(t.container.rawValue); w.string(t.operation.rawValue); w.string(t.fromType); w.string(t.toType)
        w.string(t.fromID); w.string(t.toID)
        w.bool(t.animator != nil)
        if let a = t.animator { w.string(a.plugin); w.string(a.id) }
        w.bool(t.interactive); w.f64(t.duration); w.f64(t.start); w.f64(t.end); w.string(t.outcome.rawValue)
        w.u32(UInt32(t.breaches.count))
        for b in t.breaches { breach(b, &w) }
        w.u32(UInt32(t.appearance.count))
        for a in t.appearance { w.string(a.controller); w.string(a.type); w.string(a.kind.rawValue); w.bool(a.animated); w.f64(a.time) }
        w.strings(t.restored)
        w.u32(UInt32(t.repairs.count))
        for p in t.repairs { w.string(p.kind); w.string(p.subject); w.string(p.message) }
    }

    static func record(_ r: inout ByteReader) throws -> TransitionRecord {
        let index = try r.int()
        func raw<T: RawRepresentable>(_: T.Type) throws -> T where T.RawValue == String {
            let s = try r.string()
            guard let v = T(rawValue: s) else { throw ByteReader.Damaged(description: "the worker's result has an unknown value \"\(s)\"") }
            return v
        }
        let container = try raw(ContainerKind.self), operation = try raw(TransitionOperation.self)
        let fromType = try r.string(), toType = try r.string(), fromID = try r.string(), toID = try r.string()
        let animator = try r.bool() ? AnimatorIdentity(plugin: try r.string(), id: try r.string()) : nil
        let interactive = try r.bool(), duration = try r.f64(), start = try r.f64(), end = try r.f64()
        let outcome = try raw(TransitionOutcome.self)
        var breaches: [ContractBreach] = []
        for _ in 0..<(try r.count()) { breaches.append(try breach(&r)) }
        var appearance: [AppearanceEvent] = []
        for _ in 0..<(try r.count()) {
            let c = try r.string(), t = try r.string(), k = try raw(AppearanceKind.self), a = try r.bool(), time = try r.f64()
            appearance.append(AppearanceEvent(controller: c, type: t, kind: k, animated: a, time: time))
        }
        return TransitionRecord(index: index, container: container, operation: operation, fromType: fromType, toType: toType,
                                fromID: fromID, toID: toID, animator: animator, interactive: interactive, duration: duration,
                                start: start, end: end, outcome: outcome, breaches: breaches, appearance: appearance,
                                restored: try r.strings(), repairs: try repairs(&r))
    }

    static func repairs(_ r: inout ByteReader) throws -> [HostRepair] {
        var out: [HostRepair] = []
        for _ in 0..<(try r.count()) { out.append(HostRepair(kind: try r.string(), subject: try r.string(), message: try r.string())) }
        return out
    }
}
