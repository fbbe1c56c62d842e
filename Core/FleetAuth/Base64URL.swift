import Foundation

/// The base64url encoding of RFC 4648 §5 without padding, as JWTs use it (RFC 7515 §2).
public enum Base64URL {
    /// Encodes bytes: `-` and `_` instead of `+` and `/`, no `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { character -> Character in
            switch character {
            case "+": "-"
            case "/": "_"
            default: character
            }
        })
    }

    /// Encodes the UTF-8 bytes of a string.
    public static func encode(_ text: String) -> String { encode(Array(text.utf8)) }

    /// Why `text` is not strict unpadded base64url (a phrase for messages), or nil when it is.
    ///
    /// Strict means: only `A–Z a–z 0–9 - _`, no padding, a length that is not 1 more than a multiple
    /// of 4, and unused trailing bits set to zero (so every byte string has exactly one encoding).
    public static func problem(with text: some StringProtocol) -> String? {
        for (offset, byte) in text.utf8.enumerated() where !isAlphabet(byte) {
            let shown = byte == UInt8(ascii: "=") ? "padding '='" : "character \(describe(byte))"
            return "\(shown) at offset \(offset) is not base64url (A-Z a-z 0-9 - _, no padding)"
        }
        if text.utf8.count % 4 == 1 {
            return "its length \(text.utf8.count) is not a possible base64url length"
        }
        guard let decoded = decodeUnchecked(text), encode(decoded) == String(text) else {
            return "its last character has non-zero unused bits (not canonical base64url)"
        }
        return nil
    }

    /// Decodes strict unpadded base64url; nil when `problem(with:)` finds a fault.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard problem(with: text) == nil else { return nil }
        return decodeUnchecked(text)
    }

    private static func decodeUnchecked(_ text: some StringProtocol) -> [UInt8]? {
        var standard = String(text.map { character -> Character in
            switch character {
            case "-": "+"
            case "_": "/"
            default: character
            }
        })
        while standard.utf8.count % 4 != 0 { standard.append("=") }
        return Data(base64Encoded: standard).map { Array($0) }
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
