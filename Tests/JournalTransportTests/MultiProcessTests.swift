import FleetConcurrency
import FleetTestSupport
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import JournalTransport
import Synchronization
import Testing

/// Several OS processes (each runs `journal-writer`) sharing one journal with this test process.
@Suite("Journal shared by several processes")
struct MultiProcessTests {
    /// One finished `journal-writer` run.
    struct WriterRun {
        let writer: Int
        let status: Int32
        let output: [String]
        let errors: String
    }

    @Test(arguments: [2, 3])
    func processesAgreeOnEveryCallAndEveryAckIsJournaled(processes: Int) throws {
        let binary = try Products.locate("journal-writer").path
        let fixture = try JournalFixture()
        let count = 25
        let local = try JournalTransport(path: fixture.path, durable: true)
        defer { local.close() }
        for writer in 0..<processes {
            _ = try local.createVehicle(fixture.createVehicleRequest("writer-\(writer)", at: (10, 20)))
        }
        _ = try local.createVehicle(fixture.createVehicleRequest("shared", at: nil))
        _ = try local.createTrip(fixture.createTripRequest("followed", vehicle: "writer-0", pickup: (10.5, 20)))

        // Follow writer-0's trip from this process while the others write: changes arrive by tailing.
        let followed = Mutex<[LatLng?]>([])
        let cancellation = Cancellation()
        let watchDone = DispatchSemaphore(value: 0)
        let watchError = Mutex<String?>(nil)
        Thread.detachNewThread {
            do {
                try local.watchTrip(fixture.getTrip("followed"), cancellation: cancellation) { trip in
                    followed.withLock { $0.append(trip.lastLocation?.location) }
                }
            } catch {
                watchError.withLock { $0 = "\(error)" }
            }
            watchDone.signal()
        }

        #expect(try waitUntil { followed.withLock { !$0.isEmpty } }, "the watch did not start")
        let runs = try runWriters(binary, journal: fixture.path, writers: processes, count: count, directory: fixture.directory)

        // The watch in this process saw writer-0's last move, made by another process, with no call made
        // here since (a call would apply the journal itself).
        let finalPoint = LatLng(latitude: 10 + Double(count - 1) / 1000, longitude: 20)
        let sawFinal = try waitUntil { followed.withLock { $0.last == finalPoint } }
        cancellation.cancel()
        #expect(watchDone.wait(timeout: .now() + 5) == .success)
        #expect(sawFinal, "the watch saw \(followed.withLock { $0.count }) updates, the last at \(String(describing: followed.withLock { $0.last }))")
        #expect(watchError.withLock { $0 } == nil)

        var winners: [Int: [Int]] = [:]
        for run in runs {
            #expect(run.status == 0, "writer \(run.writer) exited with \(run.status): \(run.errors)")
            #expect(run.output.count == 3 * count, "writer \(run.writer) printed \(run.output.count) lines")
            for index in 0..<count {
                #expect(run.output.contains("update \(run.writer) \(index)"))
                #expect(run.output.contains("attribute \(run.writer) \(index)"))
            }
            for line in run.output where line.hasPrefix("won ") {
                winners[Int(line.dropFirst(4))!, default: []].append(run.writer)
            }
            #expect(run.output.filter { $0.hasPrefix("won ") || $0.hasPrefix("lost ") }.count == count)
        }
        // Every race had exactly one winner; the others failed with ALREADY_EXISTS ("lost").
        #expect(winners.keys.sorted() == Array(0..<count))
        #expect(winners.values.allSatisfy { $0.count == 1 })

        // Every acknowledged call is in the journal, once; nothing else is.
        let records = try JournalReader(path: fixture.path).records()
        let setup = processes + 2
        #expect(records.count == setup + processes * count * 2 + count)
        #expect(records.map(\.sequence) == Array(1...records.count))
        var moves = Set<String>(), attributes = Set<String>(), trips: [String] = []
        for record in records.dropFirst(setup) {
            switch record.call {
            case .updateVehicle(let request):
                let latitude = try #require(request.vehicle?.lastLocation?.location?.latitude)
                moves.insert("\(request.name ?? "") \(Int(((latitude - 10) * 1000).rounded()))")
            case .updateVehicleAttributes(let request):
                let attribute = try #require(request.attributes.first)
                attributes.insert("\(attribute.key ?? "") \(attribute.stringValue ?? "")")
            case .createTrip(let request):
                trips.append(request.tripId ?? "")
            default:
                Issue.record("unexpected record \(record.call.method) at line \(record.sequence)")
            }
        }
        for writer in 0..<processes {
            for index in 0..<count {
                #expect(moves.contains("\(fixture.vehicleName("writer-\(writer)")) \(index)"))
                #expect(attributes.contains("writer-\(writer) \(index)"))
            }
        }
        #expect(moves.count == processes * count)
        #expect(trips.sorted() == (0..<count).map { "race-\($0)" }.sorted())

        // The final state: a fresh reader, and this process's transport, agree with what was acknowledged.
        let fresh = try fixture.open()
        let list = try fresh.listVehicles(fixture.listVehicles())
        #expect(try local.listVehicles(fixture.listVehicles()) == list)
        for writer in 0..<processes {
            let vehicle = try fresh.getVehicle(GetVehicleRequest(name: fixture.vehicleName("writer-\(writer)")))
            #expect(vehicle.lastLocation?.location == LatLng(latitude: 10 + Double(count - 1) / 1000, longitude: 20))
        }
        let shared = try fresh.getVehicle(GetVehicleRequest(name: fixture.vehicleName("shared")))
        #expect(shared.attributes.count == processes)
        #expect(shared.attributes.allSatisfy { $0.stringValue == "\(count - 1)" })
        for index in 0..<count {
            #expect(try fresh.getTrip(fixture.getTrip("race-\(index)")) == local.getTrip(fixture.getTrip("race-\(index)")))
        }

    }

    @Test func aWriterKilledMidSessionLosesNoAcknowledgedCallAndReleasesTheLock() throws {
        let binary = try Products.locate("journal-writer").path
        let fixture = try JournalFixture()
        let setup = try fixture.open(durable: true)
        _ = try setup.createVehicle(fixture.createVehicleRequest("writer-0", at: (10, 20)))
        _ = try setup.createVehicle(fixture.createVehicleRequest("shared", at: nil))
        setup.close()

        let output = "\(fixture.directory)/killed.out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [fixture.path, "--writer", "0", "--count", "1000000"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let acknowledged = { (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        let running = try waitUntil(seconds: 30) { acknowledged() >= 30 }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(running, "the writer acknowledged \(acknowledged()) calls")
        #expect(process.terminationReason == .uncaughtSignal)

        // Every call it acknowledged before dying is in the journal.
        let acks = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        let records = try JournalReader(path: fixture.path).records()
        let moves = Set(records.compactMap { record -> Int? in
            guard case .updateVehicle(let request) = record.call, let latitude = request.vehicle?.lastLocation?.location?.latitude else { return nil }
            return Int(((latitude - 10) * 1000).rounded())
        })
        for ack in acks where ack.hasPrefix("update 0 ") {
            #expect(moves.contains(Int(ack.dropFirst("update 0 ".count))!), "acknowledged '\(ack)' is not in the journal")
        }
        #expect(records.count >= 2 + acks.count)

        // The lock died with it: a new writer appends at once, after every record it left.
        let next = try fixture.open(durable: true)
        _ = try next.createTrip(fixture.createTripRequest("after-the-crash"))
        let after = try JournalReader(path: fixture.path).read { _ in }
        #expect(after.lastSequence == records.count + 1)
        #expect(after.incompleteTailBytes == 0)
    }

    /// Starts `writers` processes together, waits for all and collects what they printed.
    private func runWriters(_ binary: String, journal: String, writers: Int, count: Int, directory: String) throws -> [WriterRun] {
        var launched: [(process: Process, output: String, errors: String)] = []
        for writer in 0..<writers {
            let output = "\(directory)/writer-\(writer).out"
            let errors = "\(directory)/writer-\(writer).err"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = [journal, "--writer", "\(writer)", "--count", "\(count)"]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            process.standardInput = FileHandle.nullDevice
            launched.append((process, output, errors))
        }
        for run in launched {
            try run.process.run()
        }
        return try launched.enumerated().map { writer, run in
            run.process.waitUntilExit()
            let output = try String(contentsOfFile: run.output, encoding: .utf8)
            return WriterRun(writer: writer, status: run.process.terminationStatus,
                             output: output.split(separator: "\n").map(String.init),
                             errors: try String(contentsOfFile: run.errors, encoding: .utf8))
        }
    }
}
