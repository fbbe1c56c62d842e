import FleetAuth
import Testing

@Suite struct Base64URLTests {
    @Test(arguments: [
        ([UInt8](), ""), ([0x66], "Zg"), ([0x66, 0x6F], "Zm8"), ([0x66, 0x6F, 0x6F], "Zm9v"),
        ([0xFB, 0xFF, 0xBF], "-_-_"), ([0x3E, 0x3F], "Pj8"),
    ])
    func encodesWithoutPaddingInTheURLAlphabet(bytes: [UInt8], text: String) {
        #expect(Base64URL.encode(bytes) == text)
        #expect(Base64URL.decode(text) == bytes)
    }

    @Test(arguments: ["Zg==", "Zm+v", "Zm/v", "Zm9v!", "Z", "Zh", "Zm9 v"])
    func refusesNonStrictText(text: String) {
        #expect(Base64URL.decode(text) == nil)
        #expect(Base64URL.problem(with: text) != nil)
    }

    @Test func namesPaddingAndNonCanonicalBits() {
        #expect(Base64URL.problem(with: "Zg==")?.contains("padding") == true)
        // "Zh" decodes to 0x66 too, but with non-zero unused bits.
        #expect(Base64URL.problem(with: "Zh")?.contains("non-zero unused bits") == true)
    }
}
