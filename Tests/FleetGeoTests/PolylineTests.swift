import FleetGeo
import Testing
import FleetRandom

@Suite("Encoded polyline")
struct PolylineTests {
    /// Google's documented example.
    static let googleString = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    static let googlePoints = [
        GeoPoint(latitude: 38.5, longitude: -120.2),
        GeoPoint(latitude: 40.7, longitude: -120.95),
        GeoPoint(latitude: 43.252, longitude: -126.453),
    ]

    @Test func encodesGooglesExample() {
        #expect(Polyline.encode(Self.googlePoints) == Self.googleString)
    }

    @Test func decodesGooglesExample() throws {
        #expect(try Polyline.decode(Self.googleString) == Self.googlePoints)
    }

    @Test func encodesGooglesSingleValueExample() {
        // Google's step-by-step example: -179.9832104 encodes as "`~oia@".
        let encoded = Polyline.encode([GeoPoint(latitude: -179.9832104, longitude: 0)])
        #expect(encoded.hasPrefix("`~oia@"))
    }

    @Test func emptyListIsEmptyString() throws {
        #expect(Polyline.encode([]) == "")
        #expect(try Polyline.decode("") == [])
    }

    @Test(arguments: [5, 6])
    func randomPointsRoundTripExactlyAtThePrecision(precision: Int) throws {
        var generator = SeededRandom(seed: UInt64(precision))
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }
        for _ in 0..<200 {
            let count = Int.random(in: 1...60, using: &generator)
            let points = (0..<count).map { _ in
                GeoPoint(latitude: Double.random(in: -90...90, using: &generator),
                         longitude: Double.random(in: -180...180, using: &generator))
            }
            let encoded = Polyline.encode(points, precision: precision)
            let decoded = try Polyline.decode(encoded, precision: precision)
            #expect(decoded.count == points.count)
            for (original, back) in zip(points, decoded) {
                #expect(back.latitude == (original.latitude * factor).rounded(.toNearestOrAwayFromZero) / factor)
                #expect(back.longitude == (original.longitude * factor).rounded(.toNearestOrAwayFromZero) / factor)
            }
            // Re-encoding the decoded points gives the same string: no drift from the deltas.
            #expect(Polyline.encode(decoded, precision: precision) == encoded)
        }
    }

    @Test func longPolylineDoesNotDrift() throws {
        // 10,000 tiny steps: deltas between rounded values keep the last point exact.
        let points = (0..<10_000).map { GeoPoint(latitude: 37 + Double($0) * 0.0000123, longitude: -122.0) }
        let decoded = try Polyline.decode(Polyline.encode(points))
        let last = try #require(decoded.last)
        #expect(abs(last.latitude - points[points.count - 1].latitude) <= 0.000005)
    }

    @Test func rejectsCharacterOutsideTheAlphabet() {
        // '!' (33) at offset 3 is below '?' (63).
        #expect(throws: PolylineError(reason: .invalidCharacter, position: 3)) {
            try Polyline.decode("_p~!F~ps|U")
        }
    }

    @Test func rejectsValueCutOffByTheEnd() {
        // "_p~i" ends with 'i' (continuation bit set): the latitude never ends.
        #expect(throws: PolylineError(reason: .truncatedValue, position: 0)) {
            try Polyline.decode("_p~i")
        }
        // A complete point, then a longitude cut off after its first character.
        #expect(throws: PolylineError(reason: .truncatedValue, position: 14)) {
            try Polyline.decode("_p~iF~ps|U_ulLn")
        }
    }

    @Test func rejectsLatitudeWithoutLongitude() {
        #expect(throws: PolylineError(reason: .missingLongitude, position: 10)) {
            try Polyline.decode("_p~iF~ps|U_ulL")
        }
    }

    @Test func rejectsOverlongValue() {
        #expect(throws: PolylineError(reason: .valueTooLong, position: 0)) {
            try Polyline.decode(String(repeating: "~", count: 13) + "?")
        }
    }

    @Test func rejectsPointsBeyondTheEarth() {
        // Latitude 100° at offset 0: a valid encoding, but no place on Earth.
        let beyond = Polyline.encode([GeoPoint(latitude: 89, longitude: 0)]) + Polyline.encode([GeoPoint(latitude: 11, longitude: 0)])
        #expect(throws: PolylineError(reason: .coordinateOutOfRange, position: 6)) {
            try Polyline.decode(beyond)
        }
    }

    @Test func longRunsOfHugeDeltasNeitherOverflowNorTrap() {
        // Twelve-character values of almost 2^59 each: summing 16 of them would overflow Int64.
        let huge = String(repeating: "~", count: 11) + "^"
        #expect(throws: PolylineError(reason: .coordinateOutOfRange, position: 0)) {
            try Polyline.decode(String(repeating: huge, count: 32))
        }
    }

    @Test func encodingClampsInsteadOfTrapping() throws {
        let encoded = Polyline.encode([GeoPoint(latitude: .nan, longitude: .infinity), GeoPoint(latitude: 45, longitude: -1e300)])
        #expect(try Polyline.decode(encoded) == [GeoPoint(latitude: 0, longitude: 180), GeoPoint(latitude: 45, longitude: -180)])
    }

    @Test func errorDescriptionNamesTheOffset() {
        #expect(PolylineError(reason: .invalidCharacter, position: 7).description.contains("offset 7"))
    }
}
