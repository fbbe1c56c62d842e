extension JSON {
    /// Compact JSON text: no whitespace, members in order.
    ///
    /// Strings escape `"`, `\` and control characters (`\b \f \n \r \t`, others as `\u00XX`) and keep
    /// non-ASCII characters as UTF-8. Integral numbers of magnitude up to 2^53 print without a fraction
    /// (`12`, `-0`); others print in Swift's shortest round-trip form (`0.1`, `1e+100`). Non-finite
    /// numbers print as the strings `"NaN"`, `"Infinity"` and `"-Infinity"`, as proto3 JSON does.
    public func serialized() -> String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    /// Compact JSON as UTF-8 bytes (see `serialized()`).
    public func serializedBytes() -> [UInt8] {
        var writer = JSONTextWriter(indent: nil)
        writer.write(self, depth: 0)
        return writer.bytes
    }

    /// JSON for people: two-space indentation, one member or element per line, `"key": value`.
    public func prettyPrinted() -> String {
        var writer = JSONTextWriter(indent: 2)
        writer.write(self, depth: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Writes JSON text into a byte buffer: `JSON`'s serializer, and the base of writers that emit JSON
/// directly without building a tree (FleetModel's `ProtoJSONTextWriter`).
public struct JSONTextWriter {
    /// Spaces per nesting level, or nil for compact output.
    public let indent: Int?
    /// The text written so far.
    public var bytes: [UInt8] = []

    /// A writer of compact text (`indent` nil) or of text indented by `indent` spaces per level.
    public init(indent: Int?) {
        self.indent = indent
        bytes.reserveCapacity(256)
    }

    /// Writes `value`, nested `depth` levels deep.
    public mutating func write(_ value: JSON, depth: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): writeNumber(number)
        case .string(let text): writeString(text)
        case .array(let elements):
            if elements.isEmpty {
                append("[]")
                return
            }
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth: depth + 1)
                write(element, depth: depth + 1)
            }
            newline(depth: depth)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                append("{}")
                return
            }
            bytes.append(UInt8(ascii: "{"))
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth: depth + 1)
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                if indent != nil { bytes.append(UInt8(ascii: " ")) }
                write(member.value, depth: depth + 1)
            }
            newline(depth: depth)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends one byte the caller knows is plain (a bracket, a comma).
    @inlinable
    public mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes that need no escaping (ASCII the caller knows is plain).
    @inlinable
    public mutating func appendPlain(_ body: (inout [UInt8]) -> Bool) -> Bool {
        body(&bytes)
    }

    /// Appends `"name":` for a name known to be plain ASCII (a proto field's JSON name).
    @inlinable
    public mutating func writePlainKey(_ name: String) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func newline(depth: Int) {
        guard let indent else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * depth))
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes a number as `serialized()` does.
    public mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            writeString(number.isNaN ? "NaN" : (number < 0 ? "-Infinity" : "Infinity"))
            return
        }
        if number.rounded(.towardZero) == number, abs(number) <= 9_007_199_254_740_992 {
            if number == 0 {
                if number.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                bytes.append(UInt8(ascii: "0"))
                return
            }
            writeInteger(Int64(number))
            return
        }
        bytes.append(contentsOf: number.description.utf8)
    }

    private mutating func writeInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Writes a string literal: `"`, `\\` and control characters escaped, the rest as UTF-8.
    public mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                runStart = offset + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
