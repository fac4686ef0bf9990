/// Frames per second of a trace. Checked once, where it is parsed (`--fps`); the runner and the
/// renderer take it as given.
public struct FrameRate: Equatable, Sendable, CustomStringConvertible {
    public static let range = 1...240
    public static let standard = FrameRate(60)!

    public let perSecond: Int

    public init?(_ perSecond: Int) {
        guard Self.range.contains(perSecond) else { return nil }
        self.perSecond = perSecond
    }

    public var description: String { String(perSecond) }
}
