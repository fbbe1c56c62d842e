import FleetErrors
import FleetModel
import Foundation
import Testing

/// Parses `text`, expecting failure; returns the error.
private func parseFailure(_ bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) throws -> FleetError {
    do {
        let value = try JSON.parse(bytes, maxDepth: maxDepth)
        Issue.record("expected a parse error, got \(value)")
        throw FleetError.internal("parsed")
    } catch let error as FleetError {
        return error
    }
}

private func parseFailure(_ text: String, maxDepth: Int = JSON.defaultMaxDepth) throws -> FleetError {
    try parseFailure(Array(text.utf8), maxDepth: maxDepth)
}

@Suite("JSON parser")
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let json = try JSON.parse(#" { "a" : [1, -2.5, true, false, null, "x", {}, []], "b": {"c": {"d": "e"}} } "#)
        let expected: JSON = ["a": [1, -2.5, true, false, nil, "x", .object([:]), []], "b": ["c": ["d": "e"]]]
        #expect(json == expected)
        #expect(json["a"]?[1]?.doubleValue == -2.5)
        #expect(json["b"]?["c"]?["d"]?.stringValue == "e")
        #expect(json["a"]?[4]?.isNull == true)
    }

    @Test(arguments: ["0", "-0", "1", "-1", "12.5", "\"\"", "true", "false", "null", "[]", "{}"])
    func parsesScalarsAndEmptyContainersAtTheTopLevel(text: String) throws {
        let value = try JSON.parse(text)
        #expect(try JSON.parse(value.serialized()) == value)
    }

    @Test func keepsObjectMemberOrder() throws {
        let json = try JSON.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(json.objectValue?.keys == ["z", "a", "m"])
        #expect(json.serialized() == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func acceptsAllWhitespaceKinds() throws {
        #expect(try JSON.parse(" \t\r\n[ \t1 \r\n, 2 ]\n\n") == [1, 2])
    }

    @Test func decodesEveryEscape() throws {
        let json = try JSON.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\u0000""#)
        #expect(json == .string("\"\\/\u{8}\u{C}\n\r\tAé€\u{0}"))
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSON.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSON.parse(#""a\uD834\uDD1Eb""#) == .string("a𝄞b"))
    }

    @Test func keepsRawNonASCIIText() throws {
        #expect(try JSON.parse("\"héllo → 世界 😀\"") == .string("héllo → 世界 😀"))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("1e3", 1000), ("1E+3", 1000), ("1e-3", 0.001), ("-2.5e-3", -0.0025),
        ("0.1", 0.1), ("123456.789", 123456.789), ("37.4219983", 37.4219983), ("-122.084", -122.084),
        ("9007199254740993", 9007199254740992), ("12345678901234567890", 1.2345678901234567e19),
        ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", .leastNonzeroMagnitude), ("1e-400", 0),
        ("0.000000000000000000000000000001", 1e-30), ("100000000000000000000000", 1e23),
    ])
    func parsesNumbersExactly(text: String, expected: Double) throws {
        let value = try #require(try JSON.parse(text).doubleValue)
        #expect(value == expected)
        #expect(value.sign == expected.sign)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let value = try #require(try JSON.parse("-0").doubleValue)
        #expect(value.sign == .minus)
        #expect(JSON.number(value).serialized() == "-0")
    }

    @Test func parsesFromEveryInputForm() throws {
        let text = #"{"k":[1,"v"]}"#
        let expected: JSON = ["k": [1, "v"]]
        #expect(try JSON.parse(text) == expected)
        #expect(try JSON.parse(Array(text.utf8)) == expected)
        #expect(try JSON.parse(Data(text.utf8)) == expected)
        #expect(try JSON.parse(text.utf8.lazy.map { $0 }) == expected)  // a non-contiguous sequence
    }

    // MARK: Errors with positions

    @Test(arguments: [
        ("", "expected a JSON value, found the end of input at line 1, column 1 (byte 0)"),
        ("   ", "expected a JSON value, found the end of input at line 1, column 4 (byte 3)"),
        ("[1,]", "expected a JSON value, found ']' at line 1, column 4 (byte 3)"),
        ("[1 2]", "expected ',' or ']' after an array element, found '2' at line 1, column 4 (byte 3)"),
        ("[1", "expected ',' or ']' after an array element, found the end of input at line 1, column 3 (byte 2)"),
        (#"{"a" 1}"#, "expected ':' after an object key, found '1' at line 1, column 6 (byte 5)"),
        (#"{"a":1,}"#, "expected a string key in an object, found '}' at line 1, column 8 (byte 7)"),
        (#"{a:1}"#, "expected a string key in an object, found 'a' at line 1, column 2 (byte 1)"),
        (#"{"a":1 "b":2}"#, "expected ',' or '}' after an object member, found '\"' at line 1, column 8 (byte 7)"),
        (#"{"a":1"#, "expected ',' or '}' after an object member, found the end of input at line 1, column 7 (byte 6)"),
        ("nul", "expected a JSON value (did you mean 'null'?), found 'nul' at line 1, column 1 (byte 0)"),
        ("tru", "expected a JSON value (did you mean 'true'?), found 'tru' at line 1, column 1 (byte 0)"),
        ("[True]", "expected a JSON value, found 'T' at line 1, column 2 (byte 1)"),
        ("'a'", "expected a JSON value, found ''' at line 1, column 1 (byte 0)"),
        ("01", "leading zeros are not allowed in a number at line 1, column 2 (byte 1)"),
        ("-", "expected a digit in a number, found the end of input at line 1, column 2 (byte 1)"),
        ("-a", "expected a digit in a number, found 'a' at line 1, column 2 (byte 1)"),
        ("1.", "expected a digit after '.' in a number, found the end of input at line 1, column 3 (byte 2)"),
        (".5", "expected a JSON value, found '.' at line 1, column 1 (byte 0)"),
        ("1e", "expected a digit in a number's exponent, found the end of input at line 1, column 3 (byte 2)"),
        ("1e+", "expected a digit in a number's exponent, found the end of input at line 1, column 4 (byte 3)"),
        ("+1", "expected a JSON value, found '+' at line 1, column 1 (byte 0)"),
        ("1e400", "number 1e400 is out of range for a double at line 1, column 1 (byte 0)"),
        ("NaN", "expected a JSON value, found 'N' at line 1, column 1 (byte 0)"),
        (#""abc"#, "unterminated string: expected a closing '\"' at line 1, column 1 (byte 0)"),
        (#"["a\"]"#, "unterminated string: expected a closing '\"' at line 1, column 2 (byte 1)"),
        ("\"a\nb\"", "control character U+000A must be escaped in a string at line 1, column 3 (byte 2)"),
        ("\"a\tb\"", "control character U+0009 must be escaped in a string at line 1, column 3 (byte 2)"),
        (#""\x""#, "invalid escape '\\x' in a string: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX at line 1, column 2 (byte 1)"),
        (#""\u12G4""#, "invalid \\u escape: expected 4 hexadecimal digits at line 1, column 2 (byte 1)"),
        (#""\u12""#, "invalid \\u escape: expected 4 hexadecimal digits at line 1, column 2 (byte 1)"),
        (#""\ud83d""#, "lone high surrogate \\uD83D: expected a following low surrogate escape \\uDC00-\\uDFFF at line 1, column 2 (byte 1)"),
        (#""\ud83dx""#, "lone high surrogate \\uD83D: expected a following low surrogate escape \\uDC00-\\uDFFF at line 1, column 2 (byte 1)"),
        (#""\ud83d\u0041""#, "expected a low surrogate \\uDC00-\\uDFFF after \\uD83D, found \\u0041 at line 1, column 8 (byte 7)"),
        (#""\ude00""#, "lone low surrogate \\uDE00 without a preceding high surrogate at line 1, column 2 (byte 1)"),
        (#"{"a":1,"a":2}"#, "duplicate key \"a\" in an object at line 1, column 8 (byte 7)"),
        ("[1] [2]", "expected the end of input after the JSON value, found '[' at line 1, column 5 (byte 4)"),
        ("{} x", "expected the end of input after the JSON value, found 'x' at line 1, column 4 (byte 3)"),
        ("1 2", "expected the end of input after the JSON value, found '2' at line 1, column 3 (byte 2)"),
        ("[1]\u{0}", "expected the end of input after the JSON value, found U+0000 at line 1, column 4 (byte 3)"),
        ("{\n  \"a\": [\n    1,\n    x\n  ]\n}", "expected a JSON value, found 'x' at line 4, column 5 (byte 22)"),
        ("[\"é\", é]", "expected a JSON value, found byte 0xC3 at line 1, column 7 (byte 7)"),
    ])
    func reportsWhatWasExpectedAndWhere(text: String, detail: String) throws {
        let error = try parseFailure(text)
        #expect(error.code == .invalidArgument)
        #expect(error.cause == ErrorCause.malformedJSON.id)
        #expect(error.message == "\(ErrorCause.malformedJSON.summary): \(detail)")
    }

    @Test(arguments: [
        ([0x22, 0xFF, 0x22], "invalid UTF-8: byte 0xFF cannot start a character at line 1, column 2 (byte 1)"),
        ([0x22, 0x80, 0x22], "invalid UTF-8: byte 0x80 cannot start a character at line 1, column 2 (byte 1)"),
        ([0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8: byte 0xC0 cannot start a character at line 1, column 2 (byte 1)"),  // overlong '/'
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8: byte 0x80 cannot follow 0xE0 in a 3-byte sequence at line 1, column 2 (byte 1)"),  // overlong
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8: byte 0xA0 cannot follow 0xED in a 3-byte sequence at line 1, column 2 (byte 1)"),  // surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8: byte 0x90 cannot follow 0xF4 in a 4-byte sequence at line 1, column 2 (byte 1)"),  // > U+10FFFF
        ([0x22, 0xC3, 0x22], "invalid UTF-8: byte 0x22 cannot follow 0xC3 in a 2-byte sequence at line 1, column 2 (byte 1)"),
        ([0x22, 0xE2, 0x82], "invalid UTF-8: truncated 3-byte sequence at line 1, column 2 (byte 1)"),
        ([0x22, 0x61, 0x5C, 0x6E, 0xFF, 0x22], "invalid UTF-8: byte 0xFF cannot start a character at line 1, column 5 (byte 4)"),  // after an escape
        ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], "a byte-order mark is not allowed; expected a JSON value at line 1, column 1 (byte 0)"),
    ] as [([UInt8], String)])
    func rejectsInvalidUTF8(bytes: [UInt8], detail: String) throws {
        let error = try parseFailure(bytes)
        #expect(error.message == "\(ErrorCause.malformedJSON.summary): \(detail)")
    }

    // MARK: Depth

    @Test func acceptsNestingUpToTheLimit() throws {
        let text = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        _ = try JSON.parse(text)
        let objects = String(repeating: #"{"a":"#, count: 5) + "1" + String(repeating: "}", count: 5)
        _ = try JSON.parse(objects, maxDepth: 5)
    }

    @Test func rejectsNestingBeyondTheLimit() throws {
        let text = String(repeating: "[", count: 101) + String(repeating: "]", count: 101)
        let error = try parseFailure(text)
        #expect(error.message.hasSuffix("nesting deeper than 100 arrays and objects at line 1, column 101 (byte 100)"))
        let objects = String(repeating: #"{"a":"#, count: 6) + "1" + String(repeating: "}", count: 6)
        #expect(try parseFailure(objects, maxDepth: 5).message.contains("nesting deeper than 5"))
        #expect(try parseFailure("[]", maxDepth: 0).message.contains("nesting deeper than 0"))
        #expect(try JSON.parse("7", maxDepth: 0) == 7)
    }

    @Test func capsTheLimitSoValuesStaySafeToUse() throws {
        // A million open brackets: rejected at the ceiling, found without recursion.
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try parseFailure(brackets + [UInt8](repeating: UInt8(ascii: "]"), count: 1_000_000), maxDepth: .max)
        #expect(error.message.contains("nesting deeper than \(JSON.depthCeiling) arrays and objects"))
        // The ceiling itself parses, and the value can be serialized, compared and freed.
        let deepest = String(repeating: "[", count: JSON.depthCeiling) + String(repeating: "]", count: JSON.depthCeiling)
        let value = try JSON.parse(deepest, maxDepth: .max)
        #expect(value.serialized() == deepest)
        #expect(value == (try JSON.parse(deepest, maxDepth: JSON.depthCeiling)))
    }
}
