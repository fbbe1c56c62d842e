/// A proto `bytes` field: the bytes themselves, written in proto3 JSON as standard base64 with padding
/// (RFC 4648 §4) and read from standard or URL-safe base64 (§5), padded or not, as proto3's JSON mapping
/// says a parser must accept.
public struct ProtoBytes: Sendable, Hashable, ProtoJSONValue, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        guard case .string(let text) = json, let decoded = ProtoBytes.decodeBase64(text) else {
            throw ProtoJSONError.invalidValue(at: path, protoType: "TYPE_BYTES", got: json, expected: "base64 text")
        }
        bytes = decoded
    }

    public var protoJSON: JSON { .string(base64) }

    /// Standard base64 with padding.
    public var base64: String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(Self.alphabet[Int(group >> 18 & 63)])
            out.append(Self.alphabet[Int(group >> 12 & 63)])
            out.append(index + 1 < bytes.count ? Self.alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? Self.alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { base64 }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Decodes standard or URL-safe base64, with or without padding; nil for anything else.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var values = [UInt8]()
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0 else { return nil }  // data after padding
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "/"), UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard padding <= 2, values.count % 4 != 1, padding == 0 || (values.count + padding) % 4 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(values.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for value in values {
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
