import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import JournalTransport
import Testing

/// Torn tails, corrupt lines, unknown methods and newer formats.
@Suite("Damaged journals")
struct JournalDamageTests {
    @Test func aTornTailIsIgnoredByReadersAndCutByTheNextWriter() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open()
        _ = try a.createVehicle(fixture.createVehicleRequest("v1"))
        let intact = try fixture.bytes()
        // A writer killed mid-append leaves a line without its newline.
        let torn = #"{"v":1,"seq":2,"at":"2026-01-01T00:00:00Z","method":"UpdateVeh"#
        try fixture.appendRaw(torn)

        // Readers ignore it: a new transport opens and reads; the reader reports the tail.
        let b = try fixture.open()
        #expect(try b.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1"))).name == fixture.vehicleName("v1"))
        let summary = try JournalReader(path: fixture.path).read { _ in }
        #expect(summary.records == 1)
        #expect(summary.incompleteTailBytes == torn.utf8.count)
        #expect(try fixture.bytes() == intact + Array(torn.utf8))

        // The next writer, holding the lock, cuts it and appends its own record as seq 2.
        _ = try b.updateVehicle(fixture.moveRequest("v1", to: 52.6, 13.5))
        #expect(b.statistics.tornTailsCut == 1)
        let lines = try fixture.lines()
        #expect(lines.count == 2)
        #expect(try fixture.bytes().last == UInt8(ascii: "\n"))
        let records = try JournalReader(path: fixture.path).records()
        #expect(records.map(\.sequence) == [1, 2])
        #expect(records.last?.call.method == .updateVehicle)
        // The first transport follows.
        #expect(try a.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1"))).lastLocation?.location == JournalFixture.point(52.6, 13.5))
    }

    @Test func aLineCompletedLaterIsAppliedOnceComplete() throws {
        let fixture = try JournalFixture()
        let writer = try fixture.open()
        _ = try writer.createVehicle(fixture.createVehicleRequest("v1"))
        _ = try writer.updateVehicle(fixture.moveRequest("v1", to: 52.6, 13.5))
        var lines = try fixture.lines()
        let second = lines.removeLast()
        // Rewrite the journal with the second record half written, as a reader may catch it mid-append.
        try fixture.overwrite(lines[0] + "\n" + second.prefix(40))
        let reader = try fixture.open()
        #expect(reader.statistics.lastSequence == 1)
        try fixture.appendRaw(second.dropFirst(40) + "\n")
        try reader.refresh()
        #expect(reader.statistics.lastSequence == 2)
        #expect(try reader.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1"))).lastLocation?.location == JournalFixture.point(52.6, 13.5))
    }

    @Test func aCorruptMiddleLineIsDataLossNamingTheLine() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open()
        _ = try a.createVehicle(fixture.createVehicleRequest("v1"))
        _ = try a.createVehicle(fixture.createVehicleRequest("v2"))
        _ = try a.createVehicle(fixture.createVehicleRequest("v3"))
        var lines = try fixture.lines()
        lines[1] = String(lines[1].prefix(30)) + "#garbage"
        try fixture.overwrite(lines[0] + "\n")
        // A transport that has read line 1 only; then the damaged line 2 and an intact line 3 arrive.
        let b = try fixture.open()
        try fixture.appendRaw(lines[1] + "\n" + lines[2] + "\n")

        let error = expectFleetError(.dataLoss, containing: "line 2") { _ = try fixture.open() }
        #expect(error?.cause == ErrorCause.transportJournalCorrupt.id)
        #expect(error?.message.contains(fixture.path) == true)
        expectFleetError(.dataLoss, containing: "line 2") { _ = try JournalReader(path: fixture.path).records() }
        // The open transport stops at the damage: every later call throws it, and it never writes past it.
        expectFleetError(.dataLoss, containing: "line 2") { _ = try b.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1"))) }
        expectFleetError(.dataLoss, containing: "line 2") { _ = try b.createVehicle(fixture.createVehicleRequest("v4")) }
        #expect(try fixture.lines().count == 3)
        #expect(b.statistics.lastSequence == 1)
    }

    @Test(arguments: [
        (#"{"v":1,"seq":2,"at":"2026-01-01T00:00:00Z","method":"TeleportVehicle","request":{}}"#, "unknown method \"TeleportVehicle\""),
        (#"{"v":1,"seq":3,"at":"2026-01-01T00:00:00Z","method":"DeleteTrip","request":{"name":"x"}}"#, "sequence number 3, expected 2"),
        (#"{"v":1,"seq":1,"at":"2026-01-01T00:00:00Z","method":"DeleteTrip","request":{"name":"x"}}"#, "sequence number 1, expected 2"),
        (#"{"v":1,"seq":2,"at":"yesterday","method":"DeleteTrip","request":{"name":"x"}}"#, "\"at\""),
        (#"{"v":1,"seq":2,"at":"2026-01-01T00:00:00Z","method":"DeleteTrip","request":{"nmae":"x"}}"#, "request is invalid"),
        (#"{"v":1,"seq":2,"at":"2026-01-01T00:00:00Z","method":"DeleteTrip","request":{},"extra":1}"#, "unknown member \"extra\""),
        (#"{"seq":2,"at":"2026-01-01T00:00:00Z","method":"DeleteTrip","request":{}}"#, "no format version"),
        (#"[1,2]"#, "expected a JSON object"),
        (#""#, "not JSON"),
    ])
    func aBadSecondLineIsDataLossNamingLineTwo(line: String, reason: String) throws {
        let fixture = try JournalFixture()
        _ = try fixture.open().createVehicle(fixture.createVehicleRequest("v1"))
        try fixture.appendRaw(line + "\n")
        let error = expectFleetError(.dataLoss, containing: "line 2") { _ = try fixture.open() }
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func aRecordFromANewerFormatNamesBothVersions() throws {
        let fixture = try JournalFixture()
        try fixture.overwrite(#"{"v":2,"seq":1,"at":"2026-01-01T00:00:00Z","method":"CreateVehicle","request":{},"shiny":true}"# + "\n")
        let error = expectFleetError(.failedPrecondition, containing: "format version 2") { _ = try fixture.open() }
        #expect(error?.cause == ErrorCause.journalFormatTooNew.id)
        #expect(error?.message.contains("line 1") == true)
        #expect(error?.message.contains("up to 1") == true)
    }

    @Test func aRecordThatFailsWhenAppliedIsReportedAsDivergence() throws {
        let fixture = try JournalFixture()
        // Valid records, but the second creates what the first created: no writer appends that.
        let a = try fixture.open()
        _ = try a.createVehicle(fixture.createVehicleRequest("v1"))
        let first = try #require(try fixture.lines().first)
        try fixture.appendRaw(first.replacingOccurrences(of: #""seq":1"#, with: #""seq":2"#) + "\n")
        let error = expectFleetError(.dataLoss, containing: "line 2 (CreateVehicle)") { _ = try fixture.open() }
        #expect(error?.cause == ErrorCause.journalReplayDiverged.id)
        #expect(error?.message.contains("ALREADY_EXISTS") == true)
    }

    @Test func aJournalCutBelowWhatWasReadIsDataLoss() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open()
        _ = try a.createVehicle(fixture.createVehicleRequest("v1"))
        _ = try a.createVehicle(fixture.createVehicleRequest("v2"))
        let lines = try fixture.lines()
        try fixture.overwrite(lines[0] + "\n")
        expectFleetError(.dataLoss, containing: "shorter") { try a.refresh() }
    }

    @Test func aNewJournalIsPrivateToItsOwner() throws {
        let fixture = try JournalFixture()
        _ = try fixture.open()
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aJournalInAMissingFolderFailsNamingThePath() throws {
        let fixture = try JournalFixture()
        let path = "\(fixture.directory)/missing/fleet.journal"
        let error = expectFleetError(.internal, containing: path) { _ = try JournalTransport(path: path) }
        #expect(error?.cause == ErrorCause.journalIOFailure.id)
        expectFleetError(.internal, containing: path) { _ = try JournalReader(path: path).records() }
        expectFleetError(.invalidArgument, containing: "empty") { _ = try JournalTransport(path: "") }
        expectFleetError(.internal, containing: "directory") { _ = try JournalTransport(path: fixture.directory) }
    }
}
