import FleetLocation
import Testing

@Suite("NMEA sentences: checksums and addresses")
struct NMEASentenceTests {
    @Test("A sentence with a good checksum splits into talker, type and fields")
    func parsesGoodSentence() throws {
        let sentence = try NMEASentence.parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
        #expect(sentence.talker == "GP")
        #expect(sentence.type == "GGA")
        #expect(sentence.fields.count == 14)
        #expect(sentence.field(1) == "4807.038")
        #expect(sentence.field(40) == "")
    }

    @Test("A changed character makes the checksum mismatch")
    func rejectsBadChecksum() {
        #expect(throws: NMEASentence.Problem.checksumMismatch(expected: "47", computed: "46")) {
            try NMEASentence.parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47".replacingOccurrences(of: "4807.038", with: "4807.039"))
        }
    }

    @Test("Missing, short or non-hex checksums, missing '$' and control characters are refused",
          arguments: [
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPGGA,123519*4",
            "$GPGGA,123519*ZZ",
            "GPGGA,123519*47",
            "hello world",
            "$GP\u{7}GA,1*00",
            "$G*17",
          ])
    func rejectsMalformed(line: String) {
        #expect(throws: NMEASentence.Problem.self) { try NMEASentence.parse(line) }
    }

    @Test("Binary noise before the '$' is skipped, as on a serial line")
    func skipsLeadingNoise() throws {
        let line = "\u{B5}b\u{1}\u{7}$" + NMEASentence.line(body: "GNRMC,000941.00,A,4404.13387,N,12118.85628,W,0.029,,100117,,,A").dropFirst()
        let sentence = try NMEASentence.parse(line)
        #expect(sentence.talker == "GN")
        #expect(sentence.type == "RMC")
    }

    @Test("Proprietary sentences keep their whole address; lower-case hex checksums are accepted")
    func proprietaryAndLowercase() throws {
        let body = "PUBX,00,000941.00"
        let sentence = try NMEASentence.parse("$\(body)*\(NMEASentence.checksum(of: body).lowercased())")
        #expect(sentence.talker == "P")
        #expect(sentence.type == "UBX")
    }
}
