import FleetModel
import FleetTestSupport
import Foundation
import Testing
import FleetRandom

/// Kills `fleet-admin serve` with SIGKILL at seeded random moments while writers update their
/// vehicles and drive their trips over HTTP, restarts it on the same store, and checks every record:
/// what the server answered 200 for is there, and nothing older than it; a write cut by the kill may
/// be there or not, and nothing newer than the last write sent ever is.
///
/// What a round does, for each persistent store:
/// 1. start the server on the store (which holds what earlier rounds wrote);
/// 2. check every vehicle and trip of every writer against what the writers were answered;
/// 3. let the writers run (each on its own thread, each writing only its own vehicles and trips);
/// 4. SIGKILL the server after a seeded delay; each writer's request in flight becomes "cut".
/// A last restart checks the last round, and the server must then stop cleanly on SIGTERM.
///
/// Bounded: `CRASH_LOOP_ROUNDS` rounds per store (default 40), stopping early after
/// `CRASH_LOOP_SECONDS` per store (default 20) unless `CRASH_LOOP_ROUNDS` is given. For a long run:
/// `CRASH_LOOP_ROUNDS=200 swift test --skip-build --filter ServerCrashLoopTests`. Round `r` of a
/// store uses seed `CRASH_LOOP_SEED` (default 20261127) + r, which fixes the writers' workload and
/// the kill delay (where exactly the kill lands still varies); failures name it.
@Suite(.serialized) struct ServerCrashLoopTests {
    static let writerCount = 4
    static let vehiclesPerWriter = 4

    @Test(arguments: ["sqlite", "file"])
    func aKilledServerLosesNoAcknowledgedWrite(store: String) throws {
        let environment = ProcessInfo.processInfo.environment
        let requestedRounds = environment["CRASH_LOOP_ROUNDS"].flatMap(Int.init)
        let rounds = requestedRounds ?? 40
        let budget = requestedRounds == nil ? (environment["CRASH_LOOP_SECONDS"].flatMap(Double.init) ?? 20) : .infinity
        let baseSeed = environment["CRASH_LOOP_SEED"].flatMap(UInt64.init) ?? 20_261_127

        let folder = try Products.temporaryDirectory("crash-loop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storeURL = store == "sqlite" ? "sqlite:\(folder.path)/fleet.db" : "file:\(folder.path)/fleet"

        let writers = (0..<Self.writerCount).map { CrashLoopWriter(index: $0, vehicles: Self.vehiclesPerWriter) }
        var summary = CrashLoopSummary()
        let started = Date()
        var round = 0
        while round < rounds && (round < 3 || Date().timeIntervalSince(started) < budget) {
            let seed = baseSeed + UInt64(round)
            let context = "\(store) round \(round) seed \(seed); rerun with CRASH_LOOP_SEED=\(baseSeed) CRASH_LOOP_ROUNDS=\(round + 1)"
            let server = try ServerProcess(store: storeURL)
            let failures = CrashLoopCheck.verify(writers, at: server.url, round: round, summary: &summary)
            guard failures.isEmpty else {
                server.kill()
                _ = server.stop()
                Issue.record("after the kill that ended the previous round (\(context)):\n\(failures.joined(separator: "\n"))\nserver stderr: \(server.standardError)")
                return
            }

            var random = SeededRandom(seed: seed)
            let done = DispatchGroup()
            for writer in writers {
                let writerSeed = random.next()
                done.enter()
                let thread = Thread { [url = server.url] in
                    writer.run(url: url, seed: writerSeed)
                    done.leave()
                }
                thread.start()
            }
            // From 10 ms (the first writes still creating vehicles) to 600 ms (well into updates).
            let delay = 0.010 + Double(random.next() % 590) / 1000
            Thread.sleep(forTimeInterval: delay)
            server.kill()
            _ = server.stop()
            guard done.wait(timeout: .now() + 30) == .success else {
                Issue.record("a writer still runs 30 s after the kill (\(context))")
                return
            }
            let refused = writers.compactMap(\.failure)
            guard refused.isEmpty else {
                Issue.record("a write was refused while the server ran (\(context)):\n\(refused.joined(separator: "\n"))\nserver stderr: \(server.standardError)")
                return
            }
            summary.rounds += 1
            round += 1
        }

        // The last round's kill, checked; then the server stops as it should.
        let server = try ServerProcess(store: storeURL)
        let failures = CrashLoopCheck.verify(writers, at: server.url, round: nil, summary: &summary)
        #expect(failures.isEmpty, "after the last kill (\(store), \(round) rounds, seed base \(baseSeed)):\n\(failures.joined(separator: "\n"))")
        #expect(server.stop() == 0, "the server did not stop cleanly after the crash loop: \(server.standardError)")

        summary.acknowledged = writers.reduce(0) { $0 + $1.acknowledged }
        summary.cut = writers.reduce(0) { $0 + $1.cut }
        let trips = writers.flatMap(\.trips).compactMap(\.acknowledged)
        let completed = trips.filter { $0 == CrashLoopWriter.statuses.count - 1 }.count
        // Enough happened for the check to mean something: writes were answered and cut in flight.
        #expect(summary.acknowledged >= summary.rounds * 10, "only \(summary.acknowledged) acknowledged writes in \(summary.rounds) rounds")
        #expect(summary.cut > 0, "no write was in flight at any kill in \(summary.rounds) rounds")
        #expect(completed > 0, "no trip was driven to COMPLETE in \(summary.rounds) rounds")
        print("crash loop \(store): \(summary.rounds) rounds (SIGKILL each), \(summary.acknowledged) acknowledged writes, "
              + "\(summary.checks) record checks after restarts, \(summary.cut) writes cut by a kill "
              + "(\(summary.cutApplied) of them found applied), \(trips.count) trips (\(completed) complete), \(failures.isEmpty ? "none lost" : "FAILURES above"), \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }
}

/// What a crash loop did, for its closing line.
struct CrashLoopSummary {
    var rounds = 0
    var acknowledged = 0
    var cut = 0
    var cutApplied = 0
    var checks = 0
}

/// One writer's vehicles and trips: what it sent and what the server answered 200 for.
///
/// Used by one thread at a time: its own thread during a round, the test's thread between rounds
/// (the hand-over is the round's `DispatchGroup`).
final class CrashLoopWriter: @unchecked Sendable {
    static let provider = "crashloop"
    /// The trip statuses a writer drives its trips through, in order.
    static let statuses = ["NEW", "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"]

    let index: Int
    var vehicles: [VehicleLedger]
    var trips: [TripLedger] = []
    /// Writes answered 200.
    var acknowledged = 0
    /// Writes whose answer never came because the server was killed.
    var cut = 0
    /// Set when the server answered a write with anything but 200 (a fault of the server or of this test).
    var failure: String?

    /// A vehicle's writes carry sequence numbers: sequence `n` puts the vehicle at `location(n)`.
    struct VehicleLedger {
        let id: String
        /// Sequences `0..<sent` have been sent.
        var sent = 0
        /// The highest sequence known to be stored: answered 200, or seen after a restart.
        var acknowledged: Int?
        /// Whether the writer's last creation of it was answered, or it was seen after a restart.
        var exists = false
        /// Whether a write on it was cut by a kill and not yet resolved by a restart.
        var cutWrite = false
    }

    /// A trip's writes move it one status on (indexes into `statuses`).
    struct TripLedger {
        let id: String
        let vehicleID: String
        /// The furthest status sent.
        var sent: Int
        /// The furthest status known to be stored.
        var acknowledged: Int?
        var cutWrite = false
    }

    init(index: Int, vehicles: Int) {
        self.index = index
        self.vehicles = (0..<vehicles).map { VehicleLedger(id: "w\(index)-v\($0)") }
    }

    /// Where sequence `n` of vehicle `v` puts it: the latitude counts the sequence (exact as a double
    /// through JSON, since both sides print the shortest text that reads back the same).
    func location(vehicle v: Int, sequence n: Int) -> (latitude: Double, longitude: Double) {
        (52.0 + Double(n) * 1e-5, 13.0 + Double(index) * 0.01 + Double(v) * 0.001)
    }

    /// The sequence a stored latitude stands for, nil if it is none of ours.
    func sequence(vehicle v: Int, latitude: Double, longitude: Double) -> Int? {
        let n = Int(((latitude - 52.0) / 1e-5).rounded())
        let expected = location(vehicle: v, sequence: n)
        return n >= 0 && expected.latitude == latitude && expected.longitude == longitude ? n : nil
    }

    /// The trip being driven: the last one created, if it is known to exist and is not complete.
    var activeTrip: Int? {
        guard let last = trips.indices.last, let status = trips[last].acknowledged, status < Self.statuses.count - 1 else { return nil }
        return last
    }

    /// Writes until a request fails (the server was killed) or is refused.
    func run(url: String, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        failure = nil
        while true {
            let roll = random.next() % 100
            if let v = vehicles.firstIndex(where: { !$0.exists }) {
                guard write(url, createVehicle(v), vehicle: v) else { return }
            } else if let t = activeTrip, roll < 25 {
                guard write(url, advance(t), trip: t) else { return }
            } else if activeTrip == nil && roll < 10 {
                trips.append(TripLedger(id: "w\(index)-t\(trips.count)", vehicleID: vehicles[0].id, sent: 0))
                guard write(url, createTrip(trips.count - 1), trip: trips.count - 1) else { return }
            } else {
                let v = Int(random.next() % UInt64(vehicles.count))
                guard write(url, moveVehicle(v), vehicle: v) else { return }
            }
        }
    }

    private func createVehicle(_ v: Int) -> [UInt8] {
        let n = vehicles[v].sent
        vehicles[v].sent += 1
        let (latitude, longitude) = location(vehicle: v, sequence: n)
        return request("POST", "/v1/providers/\(Self.provider)/vehicles?vehicleId=\(vehicles[v].id)", """
            {"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},\
            "lastLocation":{"location":{"latitude":\(latitude),"longitude":\(longitude)}}}
            """)
    }

    private func moveVehicle(_ v: Int) -> [UInt8] {
        let n = vehicles[v].sent
        vehicles[v].sent += 1
        let (latitude, longitude) = location(vehicle: v, sequence: n)
        return request("PUT", "/v1/providers/\(Self.provider)/vehicles/\(vehicles[v].id)?updateMask=lastLocation",
                       #"{"lastLocation":{"location":{"latitude":\#(latitude),"longitude":\#(longitude)}}}"#)
    }

    private func createTrip(_ t: Int) -> [UInt8] {
        let (latitude, longitude) = location(vehicle: 0, sequence: 0)
        return request("POST", "/v1/providers/\(Self.provider)/trips?tripId=\(trips[t].id)", """
            {"vehicleId":"\(trips[t].vehicleID)","tripType":"EXCLUSIVE",\
            "pickupPoint":{"point":{"latitude":\(latitude + 0.01),"longitude":\(longitude)}},\
            "dropoffPoint":{"point":{"latitude":\(latitude + 0.02),"longitude":\(longitude)}}}
            """)
    }

    private func advance(_ t: Int) -> [UInt8] {
        let next = (trips[t].acknowledged ?? 0) + 1
        trips[t].sent = max(trips[t].sent, next)
        return request("PUT", "/v1/providers/\(Self.provider)/trips/\(trips[t].id)?updateMask=tripStatus",
                       #"{"tripStatus":"\#(Self.statuses[next])"}"#)
    }

    private func request(_ method: String, _ target: String, _ body: String) -> [UInt8] {
        RawHTTP.request(method, target, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }

    /// Sends a vehicle's write; on 200 the vehicle's last sequence is stored. False when the round is over for this writer.
    private func write(_ url: String, _ request: [UInt8], vehicle v: Int) -> Bool {
        switch send(url, request) {
        case .acknowledged:
            vehicles[v].acknowledged = vehicles[v].sent - 1
            vehicles[v].exists = true
            return true
        case .cut:
            vehicles[v].cutWrite = true
            return false
        case .refused:
            return false
        }
    }

    /// Sends a trip's write; on 200 the trip's last status sent is stored.
    private func write(_ url: String, _ request: [UInt8], trip t: Int) -> Bool {
        switch send(url, request) {
        case .acknowledged:
            trips[t].acknowledged = trips[t].sent
            return true
        case .cut:
            trips[t].cutWrite = true
            return false
        case .refused:
            return false
        }
    }

    private enum Outcome { case acknowledged, cut, refused }

    private func send(_ url: String, _ request: [UInt8]) -> Outcome {
        // A connection refused never reached the server, but counting it as cut only widens what
        // the check allows by a write that cannot have been stored: never a reason to pass wrongly.
        guard let answer = try? RawHTTP.exchange(url, request, timeout: 20), let status = answer.status else {
            cut += 1
            return .cut
        }
        guard status == 200 else {
            failure = "writer \(index): \(status) \(answer.body) for \(String(decoding: request.prefix(120), as: UTF8.self))"
            return .refused
        }
        acknowledged += 1
        return .acknowledged
    }
}

/// Reads back every writer's records from a restarted server and compares them with the ledgers.
enum CrashLoopCheck {
    /// Trips found COMPLETE (final: no write touches them again) are read back in one round out of
    /// this many, each in its turn, so that a long run does not spend its time rereading them.
    static let completeTripRotation = 8

    /// The failures found (empty when every record holds what it may). Brings the ledgers up to what
    /// the server holds, so the writers go on from there. `round` nil reads every record.
    static func verify(_ writers: [CrashLoopWriter], at url: String, round: Int?, summary: inout CrashLoopSummary) -> [String] {
        var failures: [String] = []
        for writer in writers {
            var vehicleTrips: [String: [String]] = [:]
            for v in writer.vehicles.indices {
                let ledger = writer.vehicles[v]
                summary.checks += 1
                let read: Vehicle?
                do {
                    read = try get(url, "vehicles/\(ledger.id)", Vehicle.self)
                } catch {
                    failures.append("vehicle \(ledger.id): \(error)")
                    continue
                }
                guard let vehicle = read else {
                    if let acknowledged = ledger.acknowledged {
                        failures.append("vehicle \(ledger.id) is gone; sequence \(acknowledged) was acknowledged")
                    }
                    writer.vehicles[v].exists = false
                    writer.vehicles[v].cutWrite = false
                    continue
                }
                vehicleTrips[ledger.id] = vehicle.currentTrips
                guard let point = vehicle.lastLocation?.location,
                      let stored = writer.sequence(vehicle: v, latitude: point.latitude, longitude: point.longitude) else {
                    failures.append("vehicle \(ledger.id) holds a location no write sent: \(vehicle.lastLocation?.jsonString() ?? "none")")
                    continue
                }
                if let acknowledged = ledger.acknowledged, stored < acknowledged {
                    failures.append("vehicle \(ledger.id) holds sequence \(stored), older than the acknowledged \(acknowledged) (sent up to \(ledger.sent - 1))")
                } else if stored >= ledger.sent {
                    failures.append("vehicle \(ledger.id) holds sequence \(stored), never sent (sent up to \(ledger.sent - 1))")
                } else if ledger.cutWrite && stored > (ledger.acknowledged ?? -1) {
                    summary.cutApplied += 1
                }
                writer.vehicles[v].acknowledged = max(stored, ledger.acknowledged ?? stored)
                writer.vehicles[v].exists = true
                writer.vehicles[v].cutWrite = false
            }
            for t in writer.trips.indices {
                let ledger = writer.trips[t]
                if let round, ledger.acknowledged == CrashLoopWriter.statuses.count - 1,
                   t % completeTripRotation != round % completeTripRotation {
                    continue
                }
                summary.checks += 1
                let read: Trip?
                do {
                    read = try get(url, "trips/\(ledger.id)", Trip.self)
                } catch {
                    failures.append("trip \(ledger.id): \(error)")
                    continue
                }
                guard let trip = read else {
                    if let acknowledged = ledger.acknowledged {
                        failures.append("trip \(ledger.id) is gone; \(CrashLoopWriter.statuses[acknowledged]) was acknowledged")
                    }
                    writer.trips[t].acknowledged = nil
                    writer.trips[t].cutWrite = false
                    continue
                }
                guard let stored = CrashLoopWriter.statuses.firstIndex(of: trip.tripStatus?.name ?? "NEW") else {
                    failures.append("trip \(ledger.id) is \(trip.tripStatus?.name ?? "?"), a status no write sent")
                    continue
                }
                if let acknowledged = ledger.acknowledged, stored < acknowledged {
                    failures.append("trip \(ledger.id) is \(CrashLoopWriter.statuses[stored]), before the acknowledged \(CrashLoopWriter.statuses[acknowledged])")
                } else if stored > ledger.sent {
                    failures.append("trip \(ledger.id) is \(CrashLoopWriter.statuses[stored]), never sent")
                } else if ledger.cutWrite && stored > (ledger.acknowledged ?? -1) {
                    summary.cutApplied += 1
                }
                // The trip and its vehicle are committed together: an active trip is on its vehicle, a complete one is not.
                let onVehicle = vehicleTrips[ledger.vehicleID]?.contains(ledger.id) ?? false
                let active = stored < CrashLoopWriter.statuses.count - 1
                if onVehicle != active {
                    failures.append("trip \(ledger.id) is \(CrashLoopWriter.statuses[stored]) but its vehicle \(ledger.vehicleID) "
                                    + "\(onVehicle ? "still carries it" : "does not carry it") (currentTrips \(vehicleTrips[ledger.vehicleID] ?? []))")
                }
                writer.trips[t].acknowledged = max(stored, ledger.acknowledged ?? stored)
                writer.trips[t].cutWrite = false
            }
        }
        return failures
    }

    /// GETs a record: nil on 404, the decoded message on 200, thrown otherwise.
    static func get<Message: ProtoMessage>(_ url: String, _ path: String, _ type: Message.Type) throws -> Message? {
        let answer = try RawHTTP.exchange(url, RawHTTP.request("GET", "/v1/providers/\(CrashLoopWriter.provider)/\(path)"), timeout: 20)
        switch answer.status {
        case 200: return try Message(jsonString: answer.body)
        case 404: return nil
        default: throw ReadFailure(status: answer.status, body: answer.body)
        }
    }

    struct ReadFailure: Error, CustomStringConvertible {
        let status: Int?
        let body: String
        var description: String { "GET answered \(status.map(String.init) ?? "nothing"): \(body.prefix(300))" }
    }
}

