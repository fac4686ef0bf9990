/// A view's running block animations, at most one per property, kept in an array in
/// `AnimatableProperty` order.
///
/// Sampling walks every animated view's animations on every frame: an array of a few elements
/// is walked without hashing, allocates nothing once it has grown, and keeps a fixed
/// application order (a dictionary's order depends on the process's hash seed). Lookups by
/// property are a short linear search (there are at most seven).
struct ViewAnimations {
    private(set) var list: [PropertyAnimation] = []

    var isEmpty: Bool { list.isEmpty }

    subscript(property: AnimatableProperty) -> PropertyAnimation? {
        get {
            for a in list where a.property == property { return a }
            return nil
        }
        set {
            let i = list.firstIndex { $0.property == property }
            switch (i, newValue) {
            case (let i?, let a?): list[i] = a
            case (let i?, nil): list.remove(at: i)
            case (nil, let a?):
                let at = list.firstIndex { $0.property.order > property.order } ?? list.count
                list.insert(a, at: at)
            case (nil, nil): break
            }
        }
    }
}
