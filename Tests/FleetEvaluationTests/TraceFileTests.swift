import FleetErrors
import FleetEvaluation
import FleetGeo
import Testing

private func readingError(_ text: String) -> FleetError? {
    do {
        _ = try TraceFile.drives(from: text, source: "t.csv")
        return nil
    } catch {
        return error
    }
}

struct TraceFileTests {
    @Test func readsRFC3339AndEpochSecondsGroupedByTripInTimeOrder() throws {
        let text = """
            trip_id,timestamp,latitude,longitude
            a,2026-01-26T15:55:19Z,53.44748,-2.91731\r
            b,1700000000,62.6,29.76
            a,2026-01-26T15:55:12Z,53.447185,-2.91799
            b,1700000005.5,62.601,29.761

            """
        let drives = try TraceFile.drives(from: text, source: "t.csv")
        #expect(drives.map(\.id) == ["a", "b"])
        #expect(drives[0].fixes.map(\.position.latitude) == [53.447185, 53.44748])
        #expect(drives[0].durationSeconds == 7)
        #expect(drives[1].fixes.map(\.time) == [1_700_000_000, 1_700_000_005.5])
    }

    @Test func columnsInAnyOrderAndWrittenTextReadsBack() throws {
        let text = "Latitude,Longitude,Timestamp,Trip_ID,speed\n62.6,29.76,1700000000,x,3\n62.601,29.76,1700000010,x,3\n"
        let drives = try TraceFile.drives(from: text, source: "t.csv")
        #expect(drives.count == 1 && drives[0].fixes.count == 2)
        #expect(try TraceFile.drives(from: TraceFile.text(of: drives), source: "again") == drives)
    }

    @Test func badTimestampNamesLineAndColumn() {
        let error = readingError("trip_id,timestamp,latitude,longitude\na,1700000000,62.6,29.76\na,yesterday,62.6,29.76\n")
        #expect(error?.code == .invalidArgument)
        #expect(error?.cause == ErrorCause.malformedTraceFile.id)
        #expect(error?.field == "timestamp")
        #expect(error?.message.contains("t.csv line 3, column timestamp: 'yesterday' is neither RFC 3339 nor epoch seconds") == true,
                "\(String(describing: error))")
    }

    @Test func badCoordinatesNameTheirColumn() {
        let latitude = readingError("trip_id,timestamp,latitude,longitude\na,1700000000,95,29.76\n")
        #expect(latitude?.message.contains("line 2, column latitude: '95' is not a number from -90 to 90") == true)
        let longitude = readingError("trip_id,timestamp,latitude,longitude\na,1700000000,62.6,east\n")
        #expect(longitude?.message.contains("line 2, column longitude: 'east'") == true)
    }

    @Test func missingColumnShortRowAndEmptyFile() {
        let header = readingError("trip,timestamp,latitude,longitude\na,1,2,3\n")
        #expect(header?.message.contains("t.csv line 1, column trip_id: the header names no trip_id column") == true)
        let short = readingError("trip_id,timestamp,latitude,longitude\na,1700000000,62.6\n")
        #expect(short?.message.contains("line 2: 3 fields, expected at least 4") == true)
        #expect(readingError("")?.message.contains("the file is empty") == true)
        #expect(readingError("trip_id,timestamp,latitude,longitude\n")?.message.contains("no rows") == true)
        let emptyTrip = readingError("trip_id,timestamp,latitude,longitude\n,1700000000,62.6,29.7\n")
        #expect(emptyTrip?.message.contains("line 2, column trip_id: empty") == true)
    }
}
