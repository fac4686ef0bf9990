/// Where a command writes: stdout for results, stderr for logs, warnings and progress.
public struct Console {
    public var out: (String) -> Void
    public var err: (String) -> Void
    public var isTTY: Bool
    public var color: Bool
    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, isTTY: Bool = false, color: Bool = false) {
        self.out = out; self.err = err; self.isTTY = isTTY; self.color = color
    }
}
