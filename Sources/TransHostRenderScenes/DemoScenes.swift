import TransHostCore

/// Scenes shared by the benchmark and the tests: an iPhone-sized screen (320 x 568 points)
/// with content worth looking at.
public enum DemoScenes {
    public static let screen = Size(width: 320, height: 568)

    /// A full-screen page: coloured background, a navigation bar, a few cards with labels.
    public static func page(_ e: AnimationEngine, title: String, hue: Color) -> View {
        let v = View(engine: e, frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height), name: title)
        v.backgroundColor = hue
        let bar = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 64), name: "bar")
        bar.backgroundColor = Color(red: 0.97, green: 0.97, blue: 0.97)
        bar.content = ViewContent(text: TextContent(string: title, fontSize: 17, color: .black, alignment: .center))
        v.addSubview(bar)
        for k in 0..<4 {
            let card = View(engine: e, frame: Rect(x: 16, y: 84 + Double(k) * 118, width: 288, height: 102), name: "card \(k)")
            card.backgroundColor = .white
            card.cornerRadius = 12
            card.content = ViewContent(text: TextContent(string: "\(title) row \(k + 1)", fontSize: 15, color: Color(red: 0.2, green: 0.2, blue: 0.25), alignment: .left),
                                       borderWidth: 1, borderColor: Color(red: 0.8, green: 0.8, blue: 0.85))
            v.addSubview(card)
        }
        return v
    }

    /// Non-perspective transition: the "to" page scales up from 0.9 and fades in over the
    /// opaque "from" page. Returns the root and a function setting progress 0...1.
    public static func scaleFade(_ e: AnimationEngine) -> (root: View, setProgress: (Double) -> Void) {
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height), name: "window")
        root.backgroundColor = .black
        let from = page(e, title: "From", hue: Color(red: 0.85, green: 0.9, blue: 1))
        let to = page(e, title: "To", hue: Color(red: 1, green: 0.92, blue: 0.85))
        root.addSubview(from)
        root.addSubview(to)
        return (root, { p in
            let s = 0.9 + 0.1 * p
            to.transform3D = Transform3D.scale(s, s, 1)
            to.alpha = p
        })
    }

    /// Perspective transition (split modal): snapshots of the two halves of the "from" page
    /// swing open about their outer edges (rotation about Y, m34 = -1/900), revealing "to".
    public static func splitModal(_ e: AnimationEngine) -> (root: View, setProgress: (Double) -> Void) {
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height), name: "window")
        root.backgroundColor = .black
        let to = page(e, title: "To", hue: Color(red: 1, green: 0.92, blue: 0.85))
        let from = page(e, title: "From", hue: Color(red: 0.85, green: 0.9, blue: 1))
        root.addSubview(to)
        let halfW = screen.width / 2
        let left = from.resizableSnapshotView(from: Rect(x: 0, y: 0, width: halfW, height: screen.height), afterScreenUpdates: true, withCapInsets: .zero)
        let right = from.resizableSnapshotView(from: Rect(x: halfW, y: 0, width: halfW, height: screen.height), afterScreenUpdates: true, withCapInsets: .zero)
        left.anchorPoint = Point(x: 0, y: 0.5)
        left.position = Point(x: 0, y: screen.height / 2)
        right.anchorPoint = Point(x: 1, y: 0.5)
        right.position = Point(x: screen.width, y: screen.height / 2)
        root.addSubview(left)
        root.addSubview(right)
        return (root, { p in
            let angle = p * 80 * Double.pi / 180
            left.transform3D = perspective().rotated(angle, 0, 1, 0)
            right.transform3D = perspective().rotated(-angle, 0, 1, 0)
        })
    }

    /// Identity with m34 = -1/900.
    public static func perspective(distance: Double = 900) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = -1 / distance
        return t
    }
}
