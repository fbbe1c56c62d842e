/// A cursor over ASCII text for the small fixed grammars of timestamps and durations.
struct ASCIIScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { position >= bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Consumes `byte` if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// Exactly `count` decimal digits as a number.
    mutating func digits(_ count: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<count {
            guard let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            position += 1
        }
        return value
    }

    /// One or more decimal digits (at most `limit`), with how many there were.
    mutating func digitRun(limit: Int) -> (value: Int64, count: Int)? {
        var value: Int64 = 0
        var count = 0
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            guard count < limit else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            count += 1
            position += 1
        }
        return count == 0 ? nil : (value, count)
    }

    /// A fraction's digits after '.', scaled to nanoseconds (1 to 9 digits).
    mutating func nanosecondFraction() -> Int32? {
        guard let (value, count) = digitRun(limit: 9) else { return nil }
        var nanos = value
        for _ in count..<9 { nanos *= 10 }
        return Int32(nanos)
    }
}

/// Formats nanoseconds as protobuf does: no fraction, or 3, 6 or 9 digits.
func protobufFraction(_ nanos: Int32) -> String {
    guard nanos != 0 else { return "" }
    func padded(_ value: Int32, width: Int) -> String {
        let digits = String(value)
        return "." + String(repeating: "0", count: width - digits.count) + digits
    }
    if nanos % 1_000_000 == 0 { return padded(nanos / 1_000_000, width: 3) }
    if nanos % 1_000 == 0 { return padded(nanos / 1_000, width: 6) }
    return padded(nanos, width: 9)
}
