/// A resource shown as `Label:  value` lines, labels aligned; what `get` prints by default. A value
/// of several lines continues under the first, indented to the value column. Empty values are left out.
public struct KeyValueBlock: Sendable, Equatable {
    /// The labels and values, in order.
    public var entries: [(label: String, value: String)]

    /// A block of these entries.
    public init(_ entries: [(label: String, value: String)]) {
        self.entries = entries
    }

    public static func == (lhs: KeyValueBlock, rhs: KeyValueBlock) -> Bool {
        lhs.entries.map(\.label) == rhs.entries.map(\.label) && lhs.entries.map(\.value) == rhs.entries.map(\.value)
    }

    /// The lines; `labelStyle` decorates each label (dim or bold on a terminal).
    public func lines(labelStyle: (String) -> String = { $0 }) -> [String] {
        let shown = entries.filter { !$0.value.isEmpty }
        let column = (shown.map(\.label.count).max() ?? 0) + 3
        var lines: [String] = []
        for entry in shown {
            let label = entry.label + ":"
            let padding = String(repeating: " ", count: column - label.count)
            let valueLines = entry.value.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append(labelStyle(label) + padding + valueLines[0])
            let indent = String(repeating: " ", count: column)
            lines += valueLines.dropFirst().map { indent + $0 }
        }
        return lines
    }
}
