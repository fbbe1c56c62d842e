/// How messages and match phrases are compared: lower case, with `_`, `-` and runs of white
/// space read as one space, so `update_mask cannot be empty` matches `Update mask  cannot be empty`.
enum PhraseMatching {
    /// The comparable form of a text.
    static func normalized(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text.lowercased() {
            if character == "_" || character == "-" || character.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace, !result.isEmpty { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }

    /// Whether normalized `text` holds normalized `phrase` as whole words: a phrase that starts
    /// (ends) with a letter or digit must not be preceded (followed) by one, so `role` does not
    /// match `controller`.
    static func contains(_ text: String, phrase: String) -> Bool {
        let haystack = Array(text), needle = Array(phrase)
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        let needsStartBoundary = needle[0].isLetter || needle[0].isNumber
        let needsEndBoundary = needle[needle.count - 1].isLetter || needle[needle.count - 1].isNumber
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            guard haystack[start..<(start + needle.count)].elementsEqual(needle) else { continue }
            if needsStartBoundary, start > 0, haystack[start - 1].isLetter || haystack[start - 1].isNumber { continue }
            let end = start + needle.count
            if needsEndBoundary, end < haystack.count, haystack[end].isLetter || haystack[end].isNumber { continue }
            return true
        }
        return false
    }
}
