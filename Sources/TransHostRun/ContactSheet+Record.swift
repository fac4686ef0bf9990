import TransHostCoordinators
import TransHostRender

extension ContactSheet.Caption {
    /// The caption of a played transition: animator, operation, controller types, duration,
    /// outcome and breaches, as the run summary names them.
    public init(_ record: TransitionRecord) {
        self.init(animator: record.animator.map { "\($0.plugin)/\($0.id)" } ?? "default animator",
                  transition: "#\(record.index) \(record.container.rawValue) \(record.operation.rawValue)",
                  fromTo: "\(record.fromType) \u{2192} \(record.toType)",
                  duration: record.duration, outcome: record.outcome.rawValue, interactive: record.interactive,
                  breaches: record.breaches.map { "\($0.kind): \($0.message)" })
    }
}
