/// Reading what fleet-admin prints for people, independent of wrapping and label widths.
extension String {
    /// The text with every line break (and the indentation after it) turned into one space, so a
    /// message wrapped at 80 columns reads as one line.
    var unwrapped: String {
        var result = ""
        var pendingBreak = false
        for character in self {
            if character == "\n" {
                pendingBreak = true
            } else if pendingBreak && character == " " {
                continue
            } else {
                if pendingBreak { result.append(" ") }
                pendingBreak = false
                result.append(character)
            }
        }
        return result
    }

    /// The value of `Label:  value` in a key: value block (its first line), or nil.
    func value(of label: String) -> String? {
        for line in split(separator: "\n") where line.hasPrefix(label + ":") {
            return line.dropFirst(label.count + 1).drop(while: { $0 == " " }).description
        }
        return nil
    }
}
