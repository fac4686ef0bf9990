import TransHostCore
import TransHostCoordinators

extension ScenarioRunner {
    /// A grab (docs/scenario.md, "Grabbing a running transition"): the running transition is
    /// interrupted where it is (progress p0), each sample scrubs it to p0 + the pan's progress
    /// (minus it for `backward`), and the release finishes it or runs it back to its start by
    /// the gesture's rule, the release's velocity counted in the same direction.
    func grab(_ gesture: Scenario.Gesture, backward: Bool) {
        let engine = app.engine
        if let problem = gesture.script.validate().first { warn("grab skipped: \(problem)"); return }
        let interaction = InteractionController()
        interaction.warningHandler = { [weak self] in self?.warn($0) }
        if let speed = gesture.completionSpeed { interaction.completionSpeed = speed }
        if let curve = gesture.completionCurve { interaction.completionCurve = curve }
        if let refusal = app.host.grab(with: interaction) {
            warn("grab at t = \(engine.now) s skipped: \(refusal)")
            return
        }
        let p0 = interaction.percentComplete
        let sign = backward ? -1.0 : 1.0
        let context = interaction.context
        let rule = gesture.rule ?? context.flatMap { interactionRule?($0) }
            ?? (context?.container == .navigation && context?.operation == .pop ? .backSwipe : .seed001)
        let container = app.window
        let progress = { [unowned container] (translation: Point) in
            p0 + sign * rule.progress(translation, in: container.bounds.size)
        }
        let t0 = engine.now
        for s in gesture.script.samples {
            engine.schedule(at: t0 + s.time) { interaction.update(progress(s.translation)) }
        }
        let release = gesture.script.release
        let v = gesture.script.releaseVelocity
        engine.schedule(at: t0 + release.time) {
            let p = progress(release.translation)
            interaction.update(p)
            let toward = Point(x: sign * v.x, y: sign * v.y)
            if rule.finishes(atProgress: p, velocity: toward) { interaction.finish() } else { interaction.cancel() }
        }
    }
}
