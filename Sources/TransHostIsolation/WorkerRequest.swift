import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostScenario
import TransHostSupport

/// What a supervisor asks a playback worker to play, sent as JSON on the worker's stdin. The
/// worker rebuilds exactly the scenario and the plugin set the supervisor has: the scenario
/// from its file (or the built-in one) with the supervisor's device, and the routable plugins'
/// manifests in search order with what the scan cache knew of them.
struct WorkerRequest {
    struct Plugin {
        var manifest: String
        /// nil: not validated yet; "" : validated; else the remembered failure.
        var validation: ScanCache.Validation?
    }

    var scenarioSource: String
    var device: Device
    var fps: Int
    var plugins: [Plugin]
    /// The --param items, "PLUGIN.NAME=VALUE" (parsed again against the worker's manifests).
    var parameters: [String]
    /// Plugins whose manifest cannot be used, with the sentence to report.
    var unroutable: [(plugin: String, message: String)]
    var excluded: [(plugin: String, reason: String)]
    var replaced: [PluginFailure]

    func json() -> JSONValue {
        .object([
            "scenario": .string(scenarioSource),
            // Bit patterns: the worker must play on exactly this screen size.
            "device": ["name": .string(device.name), "width": .string(String(device.width.bitPattern)),
                       "height": .string(String(device.height.bitPattern)), "scale": .number(Double(device.scale))],
            "fps": .number(Double(fps)),
            "plugins": .array(plugins.map { p in
                var o: [String: JSONValue] = ["manifest": .string(p.manifest)]
                switch p.validation {
                case nil: o["validation"] = .null
                case .passed?: o["validation"] = ["passed": true]
                case .failed(let r)?: o["validation"] = ["passed": false, "reason": .string(r)]
                }
                return .object(o)
            }),
            "parameters": .array(parameters.map(JSONValue.string)),
            "unroutable": .array(unroutable.map { ["plugin": .string($0.plugin), "message": .string($0.message)] }),
            "excluded": .array(excluded.map { ["plugin": .string($0.plugin), "reason": .string($0.reason)] }),
            "replaced": .array(replaced.map(TraceWriter.failure)),
        ])
    }

    init(scenarioSource: String, device: Device, fps: Int, plugins: [Plugin], parameters: [String],
         unroutable: [(plugin: String, message: String)], excluded: [(plugin: String, reason: String)], replaced: [PluginFailure]) {
        self.scenarioSource = scenarioSource; self.device = device; self.fps = fps; self.plugins = plugins
        self.parameters = parameters; self.unroutable = unroutable; self.excluded = excluded; self.replaced = replaced
    }

    struct Invalid: Error, CustomStringConvertible { let description: String }

    init(json v: JSONValue) throws {
        func need<T>(_ x: T?, _ what: String) throws -> T {
            guard let x else { throw Invalid(description: "the worker request has no valid \(what)") }
            return x
        }
        scenarioSource = try need(v["scenario"]?.stringValue, "scenario")
        let d = try need(v["device"], "device")
        let width = try need(d["width"]?.stringValue.flatMap { UInt64($0) }, "device width")
        let height = try need(d["height"]?.stringValue.flatMap { UInt64($0) }, "device height")
        device = Device(name: try need(d["name"]?.stringValue, "device name"), width: Double(bitPattern: width),
                        height: Double(bitPattern: height), scale: try need(d["scale"]?.intValue, "device scale"))
        fps = try need(v["fps"]?.intValue, "fps")
        plugins = try (v["plugins"]?.arrayValue ?? []).map { p in
            var validation: ScanCache.Validation?
            if let val = p["validation"], let passed = val["passed"]?.boolValue {
                validation = passed ? .passed : .failed(val["reason"]?.stringValue ?? "failed")
            }
            return Plugin(manifest: try need(p["manifest"]?.stringValue, "plugin manifest"), validation: validation)
        }
        parameters = (v["parameters"]?.arrayValue ?? []).compactMap(\.stringValue)
        unroutable = (v["unroutable"]?.arrayValue ?? []).compactMap { e in
            guard let p = e["plugin"]?.stringValue, let m = e["message"]?.stringValue else { return nil }
            return (p, m)
        }
        excluded = (v["excluded"]?.arrayValue ?? []).compactMap { e in
            guard let p = e["plugin"]?.stringValue, let r = e["reason"]?.stringValue else { return nil }
            return (p, r)
        }
        replaced = try (v["replaced"]?.arrayValue ?? []).map { f in
            PluginFailure(plugin: try need(f["plugin"]?.stringValue, "failure plugin"), call: f["call"]?.stringValue ?? "",
                          cause: f["cause"]?.stringValue ?? "", transition: f["transition"]?.intValue,
                          message: f["message"]?.stringValue ?? "")
        }
    }
}

private extension JSONValue {
    /// The request is written by the supervisor itself; an integer that does not fit is damage,
    /// read as absent (Int(exactly:) never traps).
    var intValue: Int? { doubleValue.flatMap { Int(exactly: $0) } }
}
