/// The `%xx` escapes of URLs (RFC 3986): decoded strictly for paths and leniently for query text.
enum PercentEncoding {
    /// The text with every byte outside printable ASCII (controls, space, DEL, 0x80 and above)
    /// written as `%XX`, so that a raw request line turns into a valid, ASCII-only URL path.
    static func escapingRawBytes<Bytes: Collection<UInt8>>(_ text: Bytes) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        for byte in text {
            if byte > 0x20 && byte < 0x7F {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes with every `%xx` replaced; nil when a `%` is not followed by two hex digits.
    static func strict<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = text.startIndex
        while index != text.endIndex {
            let byte = text[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                text.formIndex(after: &index)
                continue
            }
            guard let decoded = escape(in: text, at: index) else { return nil }
            output.append(decoded)
            index = text.index(index, offsetBy: 3)
        }
        return output
    }

    /// The bytes with every well-formed `%xx` replaced; a malformed escape is kept as it is.
    static func lenient<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = text.startIndex
        while index != text.endIndex {
            if text[index] == UInt8(ascii: "%"), let decoded = escape(in: text, at: index) {
                output.append(decoded)
                index = text.index(index, offsetBy: 3)
            } else {
                output.append(text[index])
                text.formIndex(after: &index)
            }
        }
        return output
    }

    /// The byte that the escape starting at `index` (a `%`) stands for, if two hex digits follow.
    private static func escape<Bytes: Collection<UInt8>>(in text: Bytes, at index: Bytes.Index) -> UInt8? {
        guard text.distance(from: index, to: text.endIndex) >= 3 else { return nil }
        let high = text[text.index(index, offsetBy: 1)], low = text[text.index(index, offsetBy: 2)]
        guard let h = hexValue(high), let l = hexValue(low) else { return nil }
        return h << 4 | l
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
