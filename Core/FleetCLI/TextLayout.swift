/// Word wrapping for help and explanations.
public enum TextLayout {
    /// The width text is wrapped to.
    public static let width = 80

    /// `text` broken into lines of at most `width` characters (longer words stay whole); the
    /// first line has `firstLineWidth` characters available when given. Blank lines in `text`
    /// separate paragraphs and are kept.
    public static func wrap(_ text: String, width: Int, firstLineWidth: Int? = nil) -> [String] {
        var lines: [String] = []
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, paragraph) in paragraphs.enumerated() {
            if paragraph.trimmingSpaces.isEmpty {
                if index > 0 && index < paragraphs.count - 1 { lines.append("") }
                continue
            }
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let available = lines.isEmpty ? (firstLineWidth ?? width) : width
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= available {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            if !line.isEmpty { lines.append(line) }
        }
        return lines
    }

    /// A two-column row: `left` padded to `column`, then `right` wrapped with a hanging indent;
    /// when `left` is too long, `right` starts on the next line.
    public static func row(_ left: String, _ right: String, column: Int, width: Int = TextLayout.width) -> [String] {
        let indent = String(repeating: " ", count: column)
        let wrapped = wrap(right, width: max(20, width - column))
        guard !wrapped.isEmpty else { return [left] }
        var lines: [String] = []
        if left.count + 2 <= column {
            lines.append(left + String(repeating: " ", count: column - left.count) + wrapped[0])
        } else {
            lines.append(left)
            lines.append(indent + wrapped[0])
        }
        lines += wrapped.dropFirst().map { indent + $0 }
        return lines
    }
}
