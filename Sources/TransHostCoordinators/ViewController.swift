import TransHostCore

/// A view controller: a type name (its class, for routing) and a root view.
public final class ViewController {
    /// The id the scenario gave it (unique within a scenario).
    public let id: String
    /// Its class name; routes match on it and on its superclasses.
    public let typeName: String
    public let view: View
    public init(id: String, typeName: String, view: View) {
        self.id = id; self.typeName = typeName; self.view = view
        if view.name.isEmpty { view.name = typeName }
    }
}

/// viewWillAppear / viewDidAppear / viewWillDisappear / viewDidDisappear.
public enum AppearanceKind: String, Sendable { case willAppear, didAppear, willDisappear, didDisappear }

/// One appearance callback delivered to a controller, at a virtual time.
public struct AppearanceEvent: Equatable, Sendable {
    public let controller: String
    public let type: String
    public let kind: AppearanceKind
    public let animated: Bool
    public let time: Double
    public init(controller: String, type: String, kind: AppearanceKind, animated: Bool, time: Double) {
        self.controller = controller; self.type = type; self.kind = kind; self.animated = animated; self.time = time
    }
}
