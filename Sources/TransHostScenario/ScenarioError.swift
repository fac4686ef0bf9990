/// Errors reading or playing a scenario; each names the file and the field.
public enum ScenarioError: Error, Equatable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case syntax(file: String, line: Int, column: Int, reason: String)
    case invalid(file: String, field: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let f, let r): return "\(f): cannot read the scenario: \(r)"
        case .syntax(let f, let l, let c, let r): return "\(f):\(l):\(c): JSON syntax error: \(r). Fix the scenario and run again."
        case .invalid(let f, let field, let r): return "\(f): field \"\(field)\": \(r)"
        }
    }
}
