import TransHostCore
import TransHostSupport

/// The most memory one transition's rendering may take for rasters. A scene is checked against
/// it before anything is drawn, frame by frame: the screen image, and for each visible view a
/// raster of its bounds at the render scale (4 bytes a pixel), which is what the renderer may
/// allocate for the view's content or its group. A scene over it (a few views a million points
/// wide, or a plugin that animates bounds to huge sizes) is an error naming the frame and the
/// largest view, instead of an allocation that aborts the host.
public enum RasterBudget {
    public static let defaultBytes = 1 << 30

    public struct Exceeded: Error, CustomStringConvertible {
        public let description: String
    }

    /// The most raster memory any frame of `frames` may need, in bytes: the screen image twice
    /// (the frame and what its encoder keeps), and for each visible view a raster of its bounds
    /// at `scale`. Transitions are rendered at the same time only while their estimates fit
    /// together (see RunExporter.concurrentRasterBytes).
    public static func estimate(frames: [[PresentationNode]], scale: Int, screen: (width: Int, height: Int)) -> Int {
        var worst = 0.0
        for nodes in frames { worst = max(worst, frameBytes(nodes, scale: scale, screen: screen).total) }
        return worst.isFinite && worst < Double(Int.max / 2) ? Int(worst) : Int.max / 2
    }

    private static func frameBytes(_ nodes: [PresentationNode], scale: Int, screen: (width: Int, height: Int)) -> (total: Double, largest: Double, node: PresentationNode?) {
        let s = Double(scale)
        var total = 2.0 * Double(screen.width) * Double(screen.height) * 4
        var largest: (bytes: Double, node: PresentationNode?) = (0, nil)
        for n in nodes where !n.isHidden {
            let b = n.state.bounds
            let px = (max(b.width, 0) * s).rounded(.up) * (max(b.height, 0) * s).rounded(.up) * 4
            total += px
            if px > largest.bytes { largest = (px, n) }
        }
        return (total, largest.bytes, largest.node)
    }

    /// Throws when a frame of `frames` needs more than `bytes`.
    public static func check(frames: [[PresentationNode]], times: [Double], scale: Int, screen: (width: Int, height: Int),
                             bytes: Int = defaultBytes, label: String) throws {
        for (k, nodes) in frames.enumerated() {
            for n in nodes where !n.isHidden {
                guard n.state.bounds.width.isFinite, n.state.bounds.height.isFinite else {
                    throw Exceeded(description: "\(label), frame \(k): view \(n.view.id) (\(n.view.name)) has bounds that are not finite numbers; nothing was rendered")
                }
            }
            let (total, _, node) = frameBytes(nodes, scale: scale, screen: screen)
            if total > Double(bytes) {
                let who = node.map { n in
                    "; the largest is view \(n.view.id) (\(n.view.name.isEmpty ? "unnamed" : n.view.name)), \(JSONWriter.format(n.state.bounds.width))x\(JSONWriter.format(n.state.bounds.height)) points"
                } ?? ""
                let t = k < times.count ? " (t = \(JSONWriter.format(times[k])) s)" : ""
                throw Exceeded(description: "\(label), frame \(k)\(t): its views need about \(Int(total / 1_048_576)) MiB of rasters at @\(scale)x, over the \(bytes >> 20) MiB render budget\(who); make the views smaller or render at a lower --scale")
            }
        }
    }
}
