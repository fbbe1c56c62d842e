/// A command line shown in help, with what it does.
public struct Example: Sendable, Hashable {
    /// The command line, as typed (`error-explain 403`).
    public let command: String
    /// What it does.
    public let explanation: String

    /// An example.
    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}
