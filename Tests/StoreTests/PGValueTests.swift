@testable import PostgresStore
import Testing

/// The binary forms the PostgreSQL store sends its parameters in: big-endian integers and IEEE
/// doubles, text and bytes as they are, and SQL NULL as no value at all.
@Suite("PostgreSQL parameter encoding")
struct PGValueTests {
    /// The bytes `value` appends after `prefix`, or nil when it is NULL (and appended nothing).
    static func encoded(_ value: PGValue, after prefix: [UInt8] = [9, 9]) -> [UInt8]? {
        var buffer = prefix
        let present = value.append(to: &buffer)
        #expect(Array(buffer.prefix(prefix.count)) == prefix, "what was in the buffer stays")
        if !present { #expect(buffer == prefix, "NULL appends nothing") }
        return present ? Array(buffer.dropFirst(prefix.count)) : nil
    }

    @Test func numbersAreBigEndian() {
        #expect(Self.encoded(.int8(0x0102_0304_0506_0708)) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Self.encoded(.int8(-2)) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
        #expect(Self.encoded(.optionalInt8(258)) == [0, 0, 0, 0, 0, 0, 1, 2])
        #expect(Self.encoded(.float8(1.5)) == [0x3F, 0xF8, 0, 0, 0, 0, 0, 0])
        #expect(Self.encoded(.float8(-0.0)) == [0x80, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func textAndBytesAreSentAsTheyAre() {
        #expect(Self.encoded(.text("vé")) == [0x76, 0xC3, 0xA9])
        #expect(Self.encoded(.optionalText("a")) == [0x61])
        #expect(Self.encoded(.bytes([0, 255, 7])) == [0, 255, 7])
        #expect(Self.encoded(.optionalBytes([1])) == [1])
        #expect(Self.encoded(.text("")) == [], "an empty text is a value, not NULL")
        #expect(Self.encoded(.bytes([])) == [])
    }

    @Test func nullIsNoValue() {
        #expect(Self.encoded(.optionalText(nil)) == nil)
        #expect(Self.encoded(.optionalBytes(nil)) == nil)
        #expect(Self.encoded(.optionalInt8(nil)) == nil)
        #expect(Self.encoded(.float8(nil)) == nil)
    }
}
