import TransHostCore
import TransHostCoordinators
import TransHostRun
import TransHostScenario
import TransHostSupport

/// The transition contract, checked on transitions played from generated scenarios. Each
/// function returns the first problem as a sentence naming the case, or nil.
enum TransitionChecks {
    /// Seconds a transition may take beyond its transitionDuration.
    static let grace = 0.5

    static let completionKinds: Set<String> = ["never-completed", "completed-twice", "completed-late", "completed-after-cancel"]
    static let hierarchyKinds: Set<String> = ["to-view-missing", "container-moved"]
    static let hierarchyRepairs: Set<String> = ["to-view-added", "from-view-added", "container-restored"]

    static func completion(_ t: TransitionTrace, _ run: RunResult, what: String, timed: Bool = true) -> String? {
        if let b = run.breaches(ofTransition: t.record.index).first(where: { completionKinds.contains($0.kind) }) {
            return "\(what): \(b.kind): \(b.message)"
        }
        let took = t.record.end - t.record.start
        if timed && took > t.record.duration + grace + 1e-9 {
            return "\(what): completeTransition came \(JSONWriter.format(took)) s after the transition began, but its transitionDuration is \(JSONWriter.format(t.record.duration)) s (allowed: \(JSONWriter.format(grace)) s more); complete when the animation ends"
        }
        return nil
    }

    /// The to-view in the container and the from-view gone (the reverse after a cancel).
    static func hierarchy(_ t: TransitionTrace, _ run: RunResult, app: App, what: String) -> String? {
        if let b = run.breaches(ofTransition: t.record.index).first(where: { hierarchyKinds.contains($0.kind) }) {
            return "\(what): \(b.kind): \(b.message)"
        }
        if let r = t.record.repairs.first(where: { hierarchyRepairs.contains($0.kind) }) {
            return "\(what): the host had to repair the hierarchy: \(r.message)"
        }
        let shown = t.record.outcome == .completed ? t.record.toID : t.record.fromID
        let left = t.record.outcome == .completed ? t.record.fromID : t.record.toID
        guard let shownView = app.controllers[shown]?.view, let leftView = app.controllers[left]?.view else { return nil }
        let nodes = Dictionary(t.after.nodes.map { ($0.view.id, $0) }, uniquingKeysWith: { a, _ in a })
        if nodes[shownView.id] == nil {
            return "\(what): after the transition the \(shown == t.record.toID ? "to" : "from")-view (\(shownView.name)) is not in the window"
        }
        if shownView !== leftView, nodes[leftView.id] != nil, t.record.container != .modal || t.record.outcome == .cancelled {
            return "\(what): after the transition the \(left == t.record.fromID ? "from" : "to")-view (\(leftView.name)) is still in the window"
        }
        return nil
    }

    /// The presentation controller of a present transition of `p` (the modal coordinator keeps
    /// them in the order the presents began, which is the order of their transitions).
    static func presentationController(_ t: TransitionTrace, _ p: Playback) -> PresentationController? {
        guard t.record.container == .modal, t.record.operation == .present else { return nil }
        let ordinal = p.run.transitions.filter { $0.record.index < t.record.index && $0.record.container == .modal && $0.record.operation == .present }.count
        let history = p.app.modal.presentationHistory
        return ordinal < history.count ? history[ordinal] : nil
    }

    /// The views a completed present may leave in the window besides the scenario's, as UIKit
    /// allows: the presentation controller's presented view (a wrapper of the plugin's) and its
    /// chrome (a dimming view), with their subviews. After a dismiss or a cancel, none.
    static func presentationViews(_ t: TransitionTrace, _ p: Playback) -> Set<String> {
        guard t.record.outcome == .completed, let pc = presentationController(t, p) else { return [] }
        func ids(_ v: View) -> [String] { [v.id] + v.subviews.flatMap(ids) }
        return Set(([pc.presentedView].compactMap { $0 } + pc.chromeViews).flatMap(ids))
    }

    /// Snapshots and views the animator added that are still in the window after the transition
    /// (`owned`: views the presentation controller may keep there).
    static func leftovers(_ t: TransitionTrace, scenarioViews: Set<String>, owned: Set<String> = [], what: String) -> String? {
        let extra = t.after.nodes.filter { !owned.contains($0.view.id) && ($0.view.isSnapshot || !scenarioViews.contains($0.view.id)) }
        guard let first = extra.first else { return nil }
        let names = extra.prefix(3).map { "\($0.view.isSnapshot ? "snapshot" : "view") \($0.view.name.isEmpty ? $0.view.id : $0.view.name)" }
        return "\(what): \(extra.count) view(s) the animator added are still in the window after it completed (\(names.joined(separator: ", ")), in \(first.parentID ?? "the window")); remove snapshots and helper views before calling completeTransition"
    }

    /// Every problem of one completed transition: completion, hierarchy, leftovers.
    static func basic(_ t: TransitionTrace, _ p: Playback, scenario: Scenario, what: String, timed: Bool = true) -> String? {
        completion(t, p.run, what: what, timed: timed) ?? hierarchy(t, p.run, app: p.app, what: what)
            ?? leftovers(t, scenarioViews: ValidationContext.scenarioViewIDs(scenario), owned: presentationViews(t, p), what: what)
    }

    /// A shown view whose frame is not where the context put it once the transition ended: the
    /// container's bounds, or for a completed present the presentation controller's
    /// frameOfPresentedViewInContainerView (the context's finalFrame(for:) of the to-controller),
    /// which a custom presentation sets on its presented view (a wrapper of the plugin's).
    static func fillsContainer(_ t: TransitionTrace, _ p: Playback, device: Device, what: String) -> String? {
        let id = t.record.outcome == .completed ? t.record.toID : t.record.fromID
        let pc = t.record.outcome == .completed ? presentationController(t, p) : nil
        guard let view = pc?.presentedView ?? p.app.controllers[id]?.view, let node = t.after.nodes.first(where: { $0.view.id == view.id }) else {
            return "\(what) on \(device.name): the shown view is not in the window afterwards"
        }
        let f = node.state.frame
        let bounds = Rect(x: 0, y: 0, width: device.width, height: device.height)
        let expected = pc?.finalFrameOfPresentedView ?? bounds
        let off = [f.minX - expected.minX, f.minY - expected.minY, f.width - expected.width, f.height - expected.height].map(abs).max() ?? 0
        guard off > 0.5 else { return nil }
        let place = expected == bounds ? "the container's bounds" : "its final frame (finalFrame(for:), the presentation controller's frameOfPresentedViewInContainerView)"
        return "\(what) on \(device.name) (\(JSONWriter.format(device.width)) x \(JSONWriter.format(device.height))): the shown view (\(view.name)) ends at frame \(WindowDiff.text([f.minX, f.minY, f.width, f.height])), not \(place) \(WindowDiff.text([expected.minX, expected.minY, expected.width, expected.height])); use the container's size (or finalFrame(for:)) instead of fixed numbers"
    }
}

extension ValidationChecks {
    static func completesOnce(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let s = c.scenario([c.forwardAction()])
            let p = try ctx.play(s, what: c.label)
            let t = try ctx.trace(p, c, action: 0, what: c.label)
            if let problem = TransitionChecks.completion(t, p.run, what: c.label) { return .fail(problem) }
            ctx.details.append("\(c.label): completed once after \(JSONWriter.format(t.record.end - t.record.start)) s")
        }
        return .pass
    }

    static func viewHierarchy(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let p = try ctx.play(c.scenario([c.forwardAction()]), what: c.label)
            let t = try ctx.trace(p, c, action: 0, what: c.label)
            if let problem = TransitionChecks.hierarchy(t, p.run, app: p.app, what: c.label) { return .fail(problem) }
            ctx.details.append("\(c.label): to-view in place, from-view gone")
        }
        return .pass
    }

    static func noLeftovers(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let s = c.scenario([c.forwardAction()])
            let p = try ctx.play(s, what: c.label)
            let t = try ctx.trace(p, c, action: 0, what: c.label)
            if let problem = TransitionChecks.leftovers(t, scenarioViews: ValidationContext.scenarioViewIDs(s),
                                                        owned: TransitionChecks.presentationViews(t, p), what: c.label) { return .fail(problem) }
            ctx.details.append("\(c.label): nothing left behind")
        }
        return .pass
    }

    static func noLateCalls(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let p = try ctx.play(c.scenario([c.forwardAction(), .wait(1)]), what: c.label)
            let t = try ctx.trace(p, c, action: 0, what: c.label)
            let late = p.run.breaches(ofTransition: t.record.index).dropFirst(t.record.breaches.count)
            if let b = late.first { return .fail("\(c.label): after completeTransition the plugin still called the host: \(b.kind): \(b.message)") }
            let changed = WindowDiff.differences(before: t.after.nodes, after: p.app.engine.sampleTree(p.app.window))
            if !changed.isEmpty {
                return .fail("\(c.label): in the second after completeTransition the window still changed (\(changed.prefix(3).joined(separator: "; "))); finish every animation before completing")
            }
            ctx.details.append("\(c.label): nothing changed after completion")
        }
        return .pass
    }

    static func reverseOperations(_ ctx: ValidationContext) throws -> Verdict {
        let cases = try ctx.cases().filter(\.reversible)
        guard !cases.isEmpty else { return .skip("no route serves a reverse operation (routes for pop or dismiss, or with \"reverse\": false)") }
        for c in cases {
            let s = c.scenario([c.forwardAction(), c.reverseAction()])
            let p = try ctx.play(s, what: "\(c.label), then \(c.reverseLabel)")
            let t = try ctx.trace(p, c, action: 1, what: c.reverseLabel)
            if let problem = TransitionChecks.basic(t, p, scenario: s, what: c.reverseLabel) { return .fail(problem) }
            ctx.details.append("\(c.reverseLabel): completed once, hierarchy right, nothing left")
        }
        return .pass
    }

    static let cancelProgress = [0, 0.25, 0.5, 0.75, 1.0]

    static func interactiveCancel(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let before = try ctx.stateBefore(c)
            for progress in cancelProgress {
                let what = "\(c.label) cancelled at progress \(JSONWriter.format(progress))"
                let s = c.scenario([c.forwardAction(gesture: TransitionCase.gesture(to: progress, width: Device.standard.width, finish: false))])
                let p = try ctx.play(s, what: what)
                let t = try ctx.trace(p, c, action: 0, what: what)
                guard t.record.outcome == .cancelled else { return .fail("\(what): the release cancels, but the transition completed; complete with !transitionWasCancelled") }
                if let problem = TransitionChecks.completion(t, p.run, what: what, timed: false) { return .fail(problem) }
                if let r = t.record.repairs.first {
                    return .fail("\(what): the state afterwards is not the state before: \(r.message)")
                }
                let diff = WindowDiff.differences(before: before, after: t.after.nodes)
                if !diff.isEmpty {
                    return .fail("\(what): the state afterwards is not the state before (\(diff.count) field(s)): \(diff.prefix(4).joined(separator: "; ")); on a cancel put back everything the animation changed")
                }
            }
            ctx.details.append("\(c.label): cancels at \(cancelProgress.map(JSONWriter.format).joined(separator: ", ")) restore every view")
        }
        return .pass
    }

    static func interactiveFinish(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let what = "\(c.label) driven to progress 0.6 and finished"
            let s = c.scenario([c.forwardAction(gesture: TransitionCase.gesture(to: 0.6, width: Device.standard.width, finish: true))])
            let p = try ctx.play(s, what: what)
            let t = try ctx.trace(p, c, action: 0, what: what)
            guard t.record.outcome == .completed else { return .fail("\(what): the release finishes, but the transition was cancelled") }
            if let problem = TransitionChecks.basic(t, p, scenario: s, what: what, timed: false) { return .fail(problem) }
            ctx.details.append("\(what): completed")
        }
        return .pass
    }

    static func reentrancy(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let actions = c.reversible ? [c.forwardAction(), c.reverseAction(), c.forwardAction(), c.reverseAction()] : [c.forwardAction()]
            let s = c.scenario(actions)
            let what = c.reversible ? "\(c.label) and back, twice in a row" : c.label
            let p = try ctx.play(s, what: what)
            for i in actions.indices {
                let t = try ctx.trace(p, c, action: i, what: "\(what), transition \(i + 1)")
                if let problem = TransitionChecks.completion(t, p.run, what: "\(what), transition \(i + 1)") { return .fail(problem) }
            }
            // The second use of the same animator must look like the first: nothing carried over.
            let first: TransitionTrace, again: TransitionTrace
            if c.reversible {
                first = try ctx.trace(p, c, action: 0, what: what)
                again = try ctx.trace(p, c, action: 2, what: what)
            } else {
                first = try ctx.trace(p, c, action: 0, what: what)
                again = try ctx.trace(try ctx.play(s, what: "\(what), played again"), c, action: 0, what: what)
            }
            if let problem = sameMotion(first, again, what: "\(c.label): the second time") { return .fail(problem) }
            if c.reversible && c.container == .navigation {
                // The reverse requested halfway through the forward transition waits for it (a
                // navigation controller queues it; UIKit refuses a dismiss during a presentation).
                let half = max(0.01, first.record.duration / 2)
                let timed = c.scenario([c.forwardAction(), c.reverseAction()], times: [0, half])
                let q = try ctx.play(timed, what: "\(c.reverseLabel) requested \(JSONWriter.format(half)) s into \(c.label)")
                for i in 0..<2 {
                    let t = try ctx.trace(q, c, action: i, what: "\(c.label) with the reverse requested halfway")
                    if let problem = TransitionChecks.basic(t, q, scenario: timed, what: "\(i == 0 ? c.label : c.reverseLabel) (reverse requested halfway)") {
                        return .fail(problem)
                    }
                }
            }
            ctx.details.append("\(what): every use completed and the repeat matched the first")
        }
        return .pass
    }

    static func sameMotion(_ a: TransitionTrace, _ b: TransitionTrace, what: String) -> String? {
        guard a.frames.count == b.frames.count else {
            return "\(what) the transition has \(b.frames.count) frames instead of \(a.frames.count): the animator keeps state between transitions"
        }
        for (i, (x, y)) in zip(a.frames, b.frames).enumerated() {
            let d = WindowDiff.positionalDifferences(x.nodes, y.nodes)
            if !d.isEmpty {
                return "\(what) frame \(i) (t = \(JSONWriter.format(x.t)) s) differs from the first time (\(d.prefix(3).joined(separator: "; "))): the animator keeps state between transitions"
            }
        }
        return nil
    }

    static let devices = ["iphone-4", "iphone-8", "iphone-12"].compactMap(Device.named)

    static func deviceIndependence(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            for d in devices {
                let actions = c.reversible ? [c.forwardAction(), c.reverseAction()] : [c.forwardAction()]
                let s = c.scenario(actions, device: d)
                let p = try ctx.play(s, what: "\(c.label) on \(d.name)")
                for i in actions.indices {
                    let what = i == 0 ? c.label : c.reverseLabel
                    let t = try ctx.trace(p, c, action: i, what: "\(what) on \(d.name)")
                    if let problem = TransitionChecks.fillsContainer(t, p, device: d, what: what) { return .fail(problem) }
                    if let problem = TransitionChecks.basic(t, p, scenario: s, what: "\(what) on \(d.name)") { return .fail(problem) }
                }
            }
            ctx.details.append("\(c.label): fills the container on \(devices.map(\.name).joined(separator: ", "))")
        }
        return .pass
    }

    static func determinism(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let actions = c.reversible ? [c.forwardAction(), c.reverseAction()] : [c.forwardAction()]
            let s = c.scenario(actions)
            let settings = TraceWriter.Settings(scale: s.device.scale)
            let one = JSONWriter.write(TraceWriter.json(try ctx.play(s, fps: .standard, what: c.label).run, settings: settings))
            let two = JSONWriter.write(TraceWriter.json(try ctx.play(s, fps: .standard, what: "\(c.label), again").run, settings: settings))
            if one != two {
                let a = one.split(separator: "\n", omittingEmptySubsequences: false), b = two.split(separator: "\n", omittingEmptySubsequences: false)
                let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
                let first = line < a.count ? a[line].trimmingPrefix(while: { $0 == " " }) : "(end)"
                let second = line < b.count ? b[line].trimmingPrefix(while: { $0 == " " }) : "(end)"
                return .fail("\(c.label): two runs of the same scenario gave different traces, first at line \(line + 1) (\(first) vs \(second)); do not depend on wall time, randomness or state left by an earlier transition")
            }
            ctx.details.append("\(c.label): identical traces (\(one.utf8.count) bytes)")
        }
        return .pass
    }
}
