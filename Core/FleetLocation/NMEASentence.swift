/// One NMEA 0183 sentence, checked and split: `$GPGGA,123519,4807.038,N,…*47` → talker `GP`, type `GGA`,
/// and the fields after the type.
///
/// The checksum (`*hh`, the XOR of every character between `$` and `*`) is required and checked.
/// Garbage before the `$` (binary noise on a serial line) is skipped, as receivers and gpsd do: the
/// sentence starts at the last `$` (or `!`) of the line.
public struct NMEASentence: Sendable, Hashable {
    /// The talker: `GP` (GPS), `GN` (several systems), `GL`, `GA`, `BD`…; `P` for proprietary sentences.
    public var talker: String
    /// The sentence type: `GGA`, `RMC`, `VTG`… (for proprietary sentences, the rest of the address).
    public var type: String
    /// The fields after the address, as written (empty strings for empty fields).
    public var fields: [String]

    /// A sentence from its parts.
    public init(talker: String, type: String, fields: [String]) {
        self.talker = talker
        self.type = type
        self.fields = fields
    }

    /// Why a line is not a usable sentence.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line holds no `$` or `!` start.
        case notASentence
        /// No `*hh` checksum at the end.
        case missingChecksum
        /// The checksum does not match the sentence.
        case checksumMismatch(expected: String, computed: String)
        /// The address (talker and type) is malformed.
        case badAddress(String)
        /// The sentence holds characters NMEA does not allow (control characters, bytes over 126).
        case invalidCharacters

        /// The problem in words, for logs.
        public var description: String {
            switch self {
            case .notASentence: "not an NMEA sentence (no '$')"
            case .missingChecksum: "no checksum ('*hh' at the end)"
            case .checksumMismatch(let expected, let computed): "checksum mismatch: sentence says \(expected), content gives \(computed)"
            case .badAddress(let address): "malformed address '\(address)'"
            case .invalidCharacters: "characters outside printable ASCII"
            }
        }
    }

    /// Parses a line. Returns the sentence, or throws the reason it is unusable.
    public static func parse(_ line: String) throws(Problem) -> NMEASentence {
        let bytes = Array(line.utf8)
        guard let start = bytes.lastIndex(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") }) else {
            throw .notASentence
        }
        var end = bytes.count
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        guard let star = bytes[start..<end].lastIndex(of: UInt8(ascii: "*")), end - star == 3 else {
            throw .missingChecksum
        }
        let body = bytes[(start + 1)..<star]
        guard body.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { throw .invalidCharacters }
        let written = String(decoding: bytes[(star + 1)..<(star + 3)], as: UTF8.self).uppercased()
        let computed = body.reduce(UInt8(0)) { $0 ^ $1 }
        let computedText = hex(computed)
        guard let expected = UInt8(written, radix: 16) else {
            throw .checksumMismatch(expected: written, computed: computedText)
        }
        guard expected == computed else { throw .checksumMismatch(expected: written, computed: computedText) }

        let parts = String(decoding: body, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let address = parts[0]
        guard address.count >= 2, address.allSatisfy({ $0.isLetter || $0.isNumber }) else { throw .badAddress(address) }
        if address.hasPrefix("P") {
            return NMEASentence(talker: "P", type: String(address.dropFirst()), fields: Array(parts.dropFirst()))
        }
        guard address.count == 5 else { throw .badAddress(address) }
        return NMEASentence(talker: String(address.prefix(2)), type: String(address.dropFirst(2)),
                            fields: Array(parts.dropFirst()))
    }

    /// The checksum of a sentence body (between `$` and `*`) as two upper-case hex digits: for writing sentences.
    public static func checksum(of body: String) -> String {
        hex(body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
    }

    /// `$BODY*hh`: a complete sentence with its checksum.
    public static func line(body: String) -> String {
        "$" + body + "*" + checksum(of: body)
    }

    /// The field at `index`, or "" when the sentence is shorter.
    public func field(_ index: Int) -> String {
        index < fields.count ? fields[index] : ""
    }

    private static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
    }
}
