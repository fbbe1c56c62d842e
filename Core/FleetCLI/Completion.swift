/// How a shell completes a value or argument.
public enum Completion: Sendable, Hashable {
    /// No completion.
    case none
    /// File names.
    case files
    /// Directory names.
    case directories
    /// These words.
    case values([String])
}
