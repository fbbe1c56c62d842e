/// Finds the pieces of one line of an error printout: `Code=7`, `code = Unavailable`, a quoted
/// description. Works on characters, without Foundation.
struct LineScanner {
    private let characters: [Character]

    init(_ line: String) {
        characters = Array(line)
    }

    /// The run of letters, digits, `.`, `_` and `-` right after the first `marker` (spaces skipped).
    func word(after marker: String) -> String? {
        guard let end = endOfFirst(marker) else { return nil }
        return word(from: end)
    }

    /// The double-quoted text that follows the first `marker`, with `\"` unescaped.
    func quotedText(after marker: String) -> String? {
        guard let end = endOfFirst(marker),
              let quote = characters[end...].firstIndex(of: "\"") else { return nil }
        var result = ""
        var escaped = false
        for character in characters[(quote + 1)...] {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return result
            } else {
                result.append(character)
            }
        }
        return nil
    }

    /// The text after the first `marker` up to the next `,` or `}`, trimmed; nil when empty.
    func text(after marker: String) -> String? {
        guard let end = endOfFirst(marker) else { return nil }
        let value = String(characters[end...].prefix(while: { $0 != "," && $0 != "}" })).trimmingWhitespace
        return value.isEmpty ? nil : value
    }

    /// The word after `key =` (a whole-word key, any case, spaces allowed around `=`).
    func value(ofKey key: String) -> String? {
        guard let end = endOfKey(key) else { return nil }
        return word(from: end)
    }

    /// Everything after `key =` (a whole-word key, any case).
    func rest(afterKey key: String) -> String? {
        guard let end = endOfKey(key) else { return nil }
        return String(characters[end...])
    }

    private func word(from start: Int) -> String? {
        let word = characters[start...].drop(while: { $0 == " " })
            .prefix(while: { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" })
        return word.isEmpty ? nil : String(word)
    }

    /// The index just past the first occurrence of `marker` (exact case).
    private func endOfFirst(_ marker: String) -> Int? {
        let pattern = Array(marker)
        guard !pattern.isEmpty, pattern.count <= characters.count else { return nil }
        for start in 0...(characters.count - pattern.count) where characters[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start + pattern.count
        }
        return nil
    }

    /// The index just past `key`, optional spaces and `=`, for the first whole-word, any-case `key`.
    private func endOfKey(_ key: String) -> Int? {
        let pattern = key.lowercased()
        let length = pattern.count
        guard length > 0, length <= characters.count else { return nil }
        for start in 0...(characters.count - length) {
            guard String(characters[start..<(start + length)]).lowercased() == pattern else { continue }
            if start > 0 {
                let before = characters[start - 1]
                if before.isLetter || before.isNumber || before == "_" { continue }
            }
            var cursor = start + length
            while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
            if cursor < characters.count, characters[cursor] == "=" { return cursor + 1 }
        }
        return nil
    }
}
