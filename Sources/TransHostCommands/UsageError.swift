/// A usage error: the message says what is wrong and how to get help.
public struct UsageError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
