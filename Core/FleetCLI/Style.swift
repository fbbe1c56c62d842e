/// Bold, colours and dim text with ANSI escapes, or plain text when disabled.
public struct Style: Sendable, Hashable {
    /// Whether escapes are written.
    public let isEnabled: Bool

    /// A style; `enabled: false` returns text unchanged.
    public init(enabled: Bool) {
        self.isEnabled = enabled
    }

    /// No escapes.
    public static let plain = Style(enabled: false)

    /// Bold text.
    public func bold(_ text: String) -> String { apply("1", text) }
    /// Red text (failures).
    public func red(_ text: String) -> String { apply("31", text) }
    /// Green text (success).
    public func green(_ text: String) -> String { apply("32", text) }
    /// Yellow text (warnings, things that need action).
    public func yellow(_ text: String) -> String { apply("33", text) }
    /// Cyan text (names, identifiers).
    public func cyan(_ text: String) -> String { apply("36", text) }
    /// Dim text (labels, secondary facts).
    public func dim(_ text: String) -> String { apply("2", text) }

    private func apply(_ code: String, _ text: String) -> String {
        isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
