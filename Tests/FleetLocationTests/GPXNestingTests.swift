import FleetErrors
import FleetLocation
import Testing

/// The GPX reader keeps open elements on an array, never on the call stack: elements nested far
/// deeper than any GPX file holds are read (or refused) without exhausting a thread's stack.
@Suite struct GPXNestingTests {
    @Test func elementsNestedAHundredThousandDeepDoNotTrap() throws {
        let depth = 100_000
        let inner = String(repeating: "<e>", count: depth) + String(repeating: "</e>", count: depth)
        let document = try GPXDocument(parsing: #"<gpx version="1.1"><wpt lat="52.5" lon="13.4">"# + inner + "</wpt></gpx>")
        #expect(document.waypoints.count == 1)
        let unclosed = #expect(throws: FleetError.self) {
            try GPXDocument(parsing: "<gpx>" + String(repeating: "<e>", count: depth) + "</gpx>")
        }
        #expect(unclosed?.message.contains("closes <e>") == true, "\(unclosed?.message ?? "")")
    }
}
