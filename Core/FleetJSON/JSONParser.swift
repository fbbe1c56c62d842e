extension JSON {
    /// The nesting limit `parse` applies unless told otherwise (protobuf's recursion limit).
    public static let defaultMaxDepth = 100

    /// The deepest nesting `parse` ever accepts, whatever `maxDepth` says. Serializing, comparing and
    /// freeing a value recurse once per level, so far deeper values could exhaust a thread's stack.
    public static let depthCeiling = 1_000

    /// Parses one JSON document (RFC 8259) from UTF-8 bytes: the product's one JSON parser.
    ///
    /// Strict: invalid UTF-8, control characters in strings, lone surrogates, duplicate object keys,
    /// numbers out of `Double`'s range, a byte-order mark and anything after the value are errors.
    /// Nesting deeper than `maxDepth` arrays/objects (at most `depthCeiling`) is an error, found without
    /// recursion: no input can exhaust the stack.
    ///
    /// - Throws: `JSONSyntaxError`, which says what was expected and where: "line L, column C (byte B)"
    ///   (line and column count from 1, the column in characters; the byte offset counts from 0).
    ///   FleetModel's `JSON.parse` reports it as INVALID_ARGUMENT with cause `MALFORMED_JSON`.
    public init(parsing bytes: some Sequence<UInt8>, maxDepth: Int = JSON.defaultMaxDepth) throws {
        if let result = try bytes.withContiguousStorageIfAvailable({ try JSON(parsing: $0, maxDepth: maxDepth) }) {
            self = result
            return
        }
        self = try Array(bytes).withUnsafeBufferPointer { try JSON(parsing: $0, maxDepth: maxDepth) }
    }

    /// Parses one JSON document from a string (see `init(parsing:maxDepth:)` for the rules).
    public init(parsing text: String, maxDepth: Int = JSON.defaultMaxDepth) throws {
        var text = text
        self = try text.withUTF8 { try JSON(parsing: $0, maxDepth: maxDepth) }
    }

    /// Parses one JSON document from a buffer of UTF-8 bytes.
    public init(parsing buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSON.defaultMaxDepth) throws {
        var parser = JSONParser(input: buffer, maxDepth: maxDepth)
        self = try parser.parseDocument()
    }
}

/// An iterative recursive-descent JSON parser over a UTF-8 buffer.
///
/// Containers being filled live on explicit stacks rather than the call stack, so depth is bounded by
/// `maxDepth` alone.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0

    /// What each open container is.
    private enum ContainerKind { case array, object }
    private var kinds: [ContainerKind] = []
    private var openArrays: [[JSON]] = []
    private var openObjects: [JSONObject] = []
    /// The key waiting for its value in each open object, with the key's byte offset (for duplicate errors).
    private var pendingKeys: [(key: String, offset: Int)] = []
    /// Reused buffer for strings with escapes.
    private var scratch: [UInt8] = []

    init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.input = input
        self.maxDepth = min(max(0, maxDepth), JSON.depthCeiling)
    }

    // MARK: Document

    mutating func parseDocument() throws -> JSON {
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            throw error(at: 0, "a byte-order mark is not allowed; expected a JSON value")
        }
        let value = try parseValue()
        skipWhitespace()
        if position < input.count {
            throw error(at: position, "expected the end of input after the JSON value, found \(describeByte(at: position))")
        }
        return value
    }

    /// Parses one value; containers are handled by looping, never by recursion.
    private mutating func parseValue() throws -> JSON {
        nextValue: while true {
            skipWhitespace()
            guard position < input.count else {
                throw error(at: position, "expected a JSON value, found the end of input")
            }
            var value: JSON
            switch input[position] {
            case UInt8(ascii: "{"):
                try checkDepth()
                position += 1
                skipWhitespace()
                if position < input.count, input[position] == UInt8(ascii: "}") {
                    position += 1
                    value = .object(JSONObject())
                } else {
                    kinds.append(.object)
                    openObjects.append(JSONObject())
                    try readKeyAndColon()
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try checkDepth()
                position += 1
                skipWhitespace()
                if position < input.count, input[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    kinds.append(.array)
                    openArrays.append([])
                    continue nextValue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                throw error(at: position, "expected a JSON value, found \(describeByte(at: position))")
            }

            // Attach the finished value to the open containers, closing those that end here.
            while let kind = kinds.last {
                skipWhitespace()
                switch kind {
                case .array:
                    openArrays[openArrays.count - 1].append(value)
                    guard position < input.count else {
                        throw error(at: position, "expected ',' or ']' after an array element, found the end of input")
                    }
                    if input[position] == UInt8(ascii: ",") {
                        position += 1
                        continue nextValue
                    } else if input[position] == UInt8(ascii: "]") {
                        position += 1
                        kinds.removeLast()
                        value = .array(openArrays.removeLast())
                    } else {
                        throw error(at: position, "expected ',' or ']' after an array element, found \(describeByte(at: position))")
                    }
                case .object:
                    let pending = pendingKeys.removeLast()
                    if !openObjects[openObjects.count - 1].insertNew(key: pending.key, value: value) {
                        throw error(at: pending.offset, "duplicate key \(quoted(pending.key)) in an object")
                    }
                    guard position < input.count else {
                        throw error(at: position, "expected ',' or '}' after an object member, found the end of input")
                    }
                    if input[position] == UInt8(ascii: ",") {
                        position += 1
                        try readKeyAndColon()
                        continue nextValue
                    } else if input[position] == UInt8(ascii: "}") {
                        position += 1
                        kinds.removeLast()
                        value = .object(openObjects.removeLast())
                    } else {
                        throw error(at: position, "expected ',' or '}' after an object member, found \(describeByte(at: position))")
                    }
                }
            }
            return value
        }
    }

    private func checkDepth() throws {
        if kinds.count >= maxDepth {
            throw error(at: position, "nesting deeper than \(maxDepth) arrays and objects")
        }
    }

    /// Reads `"key" :` inside an object and records the key as pending.
    private mutating func readKeyAndColon() throws {
        skipWhitespace()
        guard position < input.count, input[position] == UInt8(ascii: "\"") else {
            throw error(at: position, "expected a string key in an object, found \(describeByte(at: position))")
        }
        let keyOffset = position
        let key = try parseString()
        skipWhitespace()
        guard position < input.count, input[position] == UInt8(ascii: ":") else {
            throw error(at: position, "expected ':' after an object key, found \(describeByte(at: position))")
        }
        position += 1
        pendingKeys.append((key, keyOffset))
    }

    // MARK: Scalars

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let start = position
        let length = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: length)
        for offset in 0..<length {
            guard start + offset < input.count, input[start + offset] == expected[offset] else {
                throw error(at: start, "expected a JSON value (did you mean '\(literal)'?), found \(describeToken(at: start))")
            }
        }
        position = start + length
    }

    /// Parses a string starting at its opening quote; leaves `position` after the closing quote.
    private mutating func parseString() throws -> String {
        let openingQuote = position
        position += 1
        let start = position
        // Fast path: no escapes; validate UTF-8 in place.
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
                position += 1
                return text
            } else if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start)
            } else if byte < 0x20 {
                throw error(at: position, "control character \(describeControl(byte)) must be escaped in a string")
            } else if byte < 0x80 {
                position += 1
            } else {
                position = try validateUTF8Sequence(at: position)
            }
        }
        throw error(at: openingQuote, "unterminated string: expected a closing '\"'")
    }

    /// Continues a string that has escapes, copying into `scratch`.
    private mutating func parseEscapedString(from start: Int) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<position]))
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                try parseEscape()
            } else if byte < 0x20 {
                throw error(at: position, "control character \(describeControl(byte)) must be escaped in a string")
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                let end = try validateUTF8Sequence(at: position)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<end]))
                position = end
            }
        }
        throw error(at: start - 1, "unterminated string: expected a closing '\"'")
    }

    /// Decodes one escape at `position` (the backslash) into `scratch`.
    private mutating func parseEscape() throws {
        let escapeStart = position
        guard position + 1 < input.count else {
            throw error(at: position, "unterminated escape sequence in a string")
        }
        let letter = input[position + 1]
        position += 2
        switch letter {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u") else {
                    throw error(at: escapeStart, "lone high surrogate \\u\(hex4(scalar)): expected a following low surrogate escape \\uDC00-\\uDFFF")
                }
                let lowStart = position
                position += 2
                let low = try readHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(at: lowStart, "expected a low surrogate \\uDC00-\\uDFFF after \\u\(hex4(scalar)), found \\u\(hex4(low))")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(at: escapeStart, "lone low surrogate \\u\(hex4(scalar)) without a preceding high surrogate")
            }
            appendUTF8(of: scalar)
        default:
            throw error(at: escapeStart, "invalid escape '\\\(Character(Unicode.Scalar(letter)))' in a string: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    private mutating func readHex4(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < input.count, let digit = hexValue(input[position]) else {
                throw error(at: escapeStart, "invalid \\u escape: expected 4 hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func appendUTF8(of scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Checks the multi-byte UTF-8 sequence starting at `start` (lead byte ≥ 0x80); returns the offset after it.
    private func validateUTF8Sequence(at start: Int) throws -> Int {
        let lead = input[start]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F  // excludes UTF-16 surrogates
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F  // at most U+10FFFF
        default:
            throw error(at: start, "invalid UTF-8: byte 0x\(hex2(lead)) cannot start a character")
        }
        for offset in 1..<length {
            guard start + offset < input.count else {
                throw error(at: start, "invalid UTF-8: truncated \(length)-byte sequence")
            }
            let byte = input[start + offset]
            let low = offset == 1 ? lowerBound : 0x80
            let high = offset == 1 ? upperBound : 0xBF
            guard byte >= low, byte <= high else {
                throw error(at: start, "invalid UTF-8: byte 0x\(hex2(byte)) cannot follow 0x\(hex2(lead)) in a \(length)-byte sequence")
            }
        }
        return start + length
    }

    /// Parses a number per RFC 8259's grammar.
    private mutating func parseNumber() throws -> Double {
        let start = position
        var negative = false
        if input[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < input.count, isDigit(input[position]) else {
            throw error(at: position, "expected a digit in a number, found \(describeByte(at: position))")
        }
        // Integer part, accumulating up to 19 significant digits exactly.
        var mantissa: UInt64 = 0
        var digitCount = 0
        var exponentAdjust = 0
        var exact = true
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < input.count, isDigit(input[position]) {
                throw error(at: position, "leading zeros are not allowed in a number")
            }
        } else {
            while position < input.count, isDigit(input[position]) {
                accumulate(input[position], into: &mantissa, digits: &digitCount, exact: &exact, exponentAdjust: &exponentAdjust, fraction: false)
                position += 1
            }
        }
        if position < input.count, input[position] == UInt8(ascii: ".") {
            position += 1
            guard position < input.count, isDigit(input[position]) else {
                throw error(at: position, "expected a digit after '.' in a number, found \(describeByte(at: position))")
            }
            while position < input.count, isDigit(input[position]) {
                accumulate(input[position], into: &mantissa, digits: &digitCount, exact: &exact, exponentAdjust: &exponentAdjust, fraction: true)
                position += 1
            }
        }
        var exponent = 0
        if position < input.count, input[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                exponentNegative = input[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < input.count, isDigit(input[position]) else {
                throw error(at: position, "expected a digit in a number's exponent, found \(describeByte(at: position))")
            }
            while position < input.count, isDigit(input[position]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(input[position] - UInt8(ascii: "0")) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        // Exact fast path (Clinger): a mantissa below 2^53 scaled by an exactly representable power of ten.
        let scale = exponent + exponentAdjust
        if exact, mantissa < (1 << 53), (-22...22).contains(scale) {
            var value = Double(mantissa)
            if scale >= 0 { value *= Self.powersOfTen[scale] } else { value /= Self.powersOfTen[-scale] }
            return negative ? -value : value
        }
        // General path: the standard library's correctly rounded conversion.
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(at: start, "number \(text) is out of range for a double")
        }
        return value
    }

    @inline(__always)
    private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, digits: inout Int, exact: inout Bool,
                            exponentAdjust: inout Int, fraction: Bool) {
        let value = UInt64(digit - UInt8(ascii: "0"))
        if digits == 0 && value == 0 {
            // Leading zeros (e.g. 0.000123) only move the decimal point.
            if fraction { exponentAdjust -= 1 }
            return
        }
        if digits < 19 {
            mantissa = mantissa * 10 + value
            digits += 1
            if fraction { exponentAdjust -= 1 }
        } else {
            // Further digits do not fit: the general path will convert the text.
            exact = false
            if !fraction { exponentAdjust += 1 }
        }
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Errors

    /// A syntax error at byte `offset`, naming the line, column and byte.
    private func error(at offset: Int, _ problem: String) -> JSONSyntaxError {
        let location = Self.location(of: offset, in: input)
        return JSONSyntaxError(problem: problem, offset: offset, line: location.line, column: location.column)
    }

    /// Line and column (both from 1; the column counts characters, not bytes) of byte `offset`.
    static func location(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in UnsafeBufferPointer(rebasing: input[0..<min(offset, input.count)]) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private func describeByte(at offset: Int) -> String {
        guard offset < input.count else { return "the end of input" }
        let byte = input[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x20 { return describeControl(byte) }
        return "byte 0x\(hex2(byte))"
    }

    /// The word at `offset` (letters only) for messages like "found 'nul'".
    private func describeToken(at offset: Int) -> String {
        var end = offset
        while end < input.count, end - offset < 20, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(input[end] | 0x20) {
            end += 1
        }
        if end == offset { return describeByte(at: offset) }
        return "'" + String(decoding: UnsafeBufferPointer(rebasing: input[offset..<end]), as: UTF8.self) + "'"
    }

    private func describeControl(_ byte: UInt8) -> String { "U+00\(hex2(byte))" }
    private func hex2(_ byte: UInt8) -> String { hexDigits(UInt32(byte), width: 2) }
    private func hex4(_ value: UInt32) -> String { hexDigits(value, width: 4) }
    private func hexDigits(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private func quoted(_ key: String) -> String { JSON.string(key).serialized() }
}
