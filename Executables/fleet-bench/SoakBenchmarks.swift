import FleetModel
import Foundation
import Glibc
import HTTPServer
import RESTClient
import Synchronization

/// A soak: `fleet-admin serve` over durable SQLite under a few minutes of mixed load (location
/// updates, GetTrip, and `:watch` streams opened, read and closed in a loop), reporting the server's
/// resident memory and open files at start, after warm-up and at the end. A server that leaks shows
/// memory or descriptors growing after warm-up; one that does not levels off.
///
/// The same load runs twice: with glibc's default malloc arenas (up to 8 per core, one taken by each
/// thread that allocates while another holds the arena it used) and with `MALLOC_ARENA_MAX=2`.
enum SoakBenchmarks {
    static let provider = "soak"
    static let vehicles = 100

    /// `FLEET_SOAK_SECONDS` (default 60) for each of the two runs.
    static func run() -> [BenchmarkRow] {
        let seconds = ProcessInfo.processInfo.environment["FLEET_SOAK_SECONDS"].flatMap(Double.init) ?? 60
        return soak(seconds: seconds, environment: [:], label: "default arenas")
            + soak(seconds: seconds, environment: ["MALLOC_ARENA_MAX": "2"], label: "MALLOC_ARENA_MAX=2")
    }

    static func soak(seconds: Double, environment: [String: String], label: String) -> [BenchmarkRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-soak-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server: BenchServer
        do { server = try BenchServer(folder: folder, environment: environment) } catch {
            return [BenchmarkRow(name: "soak (\(label))", value: "failed", comparison: "\(error)")]
        }
        defer { server.stop() }
        let pid = server.process.processIdentifier
        do {
            let client = try RESTClient(baseURL: server.url)
            try setUp(client)
            let start = sample(pid)
            let counts = Mutex((updates: 0, reads: 0, watches: 0, failures: 0))
            let stop = Atomic<Bool>(false)
            let group = DispatchGroup()
            // Two writers, two readers, two watch cyclers: six threads on a shared two-core machine.
            for worker in 0..<6 {
                DispatchQueue.global().async(group: group) {
                    var step = 0
                    while !stop.load(ordering: .relaxed) {
                        step += 1
                        let vehicle = (worker * 37 + step) % vehicles
                        do {
                            switch worker % 3 {
                            case 0:
                                try WatchBenchmarks.update(client, vehicle: vehicle, step: step, provider: provider)
                                counts.withLock { $0.updates += 1 }
                            case 1:
                                _ = try client.getTrip(GetTripRequest(name: "providers/\(provider)/trips/t\(vehicle)"))
                                counts.withLock { $0.reads += 1 }
                            default:
                                try watchOnce(port: server.port, trip: vehicle)
                                counts.withLock { $0.watches += 1 }
                            }
                        } catch {
                            counts.withLock { $0.failures += 1 }
                        }
                    }
                }
            }
            let warmUp = min(seconds / 4, 30)
            Thread.sleep(forTimeInterval: warmUp)
            let warm = sample(pid)
            Thread.sleep(forTimeInterval: seconds - warmUp)
            stop.store(true, ordering: .relaxed)
            group.wait()
            let end = sample(pid)
            let done = counts.withLock { $0 }
            return [
                BenchmarkRow(name: "soak, \(Int(seconds)) s (\(label)): server RSS",
                             value: String(format: "%.0f MB", end.rssMB),
                             comparison: String(format: "start %.0f MB, after %.0f s warm-up %.0f MB, end %.0f MB; %d updates, %d GetTrip, %d watches opened and closed, %d failures",
                                                start.rssMB, warmUp, warm.rssMB, end.rssMB, done.updates, done.reads, done.watches, done.failures)),
                BenchmarkRow(name: "soak, \(Int(seconds)) s (\(label)): server open files",
                             value: "\(end.openFiles)",
                             comparison: "start \(start.openFiles), after warm-up \(warm.openFiles), end \(end.openFiles)"),
            ]
        } catch {
            return [BenchmarkRow(name: "soak (\(label))", value: "failed", comparison: "\(error)")]
        }
    }

    /// 100 vehicles, each on a trip of its own.
    static func setUp(_ client: RESTClient) throws {
        let parent = "providers/\(provider)"
        for i in 0..<vehicles {
            _ = try client.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v\(i)", vehicle: Vehicle(
                vehicleState: .online, supportedTripTypes: [.exclusive],
                lastLocation: VehicleLocation(location: WatchBenchmarks.location(i, step: 0)),
                maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
            _ = try client.createTrip(CreateTripRequest(parent: parent, tripId: "t\(i)", trip: Trip(
                vehicleId: "v\(i)", tripType: .exclusive,
                pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)),
                dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.43)))))
        }
    }

    /// Opens a watch of trip `trip`, reads its first event, closes it.
    static func watchOnce(port: UInt16, trip: Int) throws {
        let socket = try WatchStreams.connect(port: port)
        defer { close(socket) }
        let request = Array("GET /v1/providers/\(provider)/trips/t\(trip):watch HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw StreamFailure(description: "could not send a watch request")
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !String(decoding: received, as: UTF8.self).contains("event: trip") {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { throw StreamFailure(description: "a watch ended before its first event") }
            received += buffer[0..<count]
        }
    }

    struct Sample {
        var rssMB: Double
        var openFiles: Int
    }

    /// The process's resident memory (`VmRSS`) and open descriptors, from /proc.
    static func sample(_ pid: Int32) -> Sample {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
            .flatMap { Double($0) } ?? 0
        let files = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        return Sample(rssMB: rss / 1024, openFiles: files)
    }
}
