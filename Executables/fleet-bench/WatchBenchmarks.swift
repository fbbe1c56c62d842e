import FleetConcurrency
import FleetModel
import Foundation
import Glibc
import HTTPServer
import RESTClient
import Synchronization

/// Watch latency: the time from sending UpdateVehicle to the `:watch` event reaching a follower,
/// with 1,000 watch streams open on `fleet-admin serve` over durable SQLite. The UpdateVehicle round
/// trip alone, measured in the same run, is the baseline (the event cannot come before the commit).
enum WatchBenchmarks {
    static let provider = "bench"
    static let watches = 1000
    static let writers = 4
    static let seconds = 5.0

    static func run() -> [BenchmarkRow] {
        OpenFileLimit.raise(toAtLeast: 2 * watches + 256)  // both ends of every stream, here and in the server
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-watch-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server: BenchServer
        do { server = try BenchServer(folder: folder) } catch {
            return [BenchmarkRow(name: "fleet-admin serve", failed: "\(error)")]
        }
        defer { server.stop() }
        do {
            let client = try RESTClient(baseURL: server.url)
            try setUp(client)
            return try [oneWatchPerTrip(server: server), allWatchingOneTrip(server: server, client: client)]
        } catch {
            return [BenchmarkRow(name: "watch latency", failed: "\(error)")]
        }
    }

    /// 1,000 vehicles, each on a trip of its own.
    static func setUp(_ client: RESTClient) throws {
        let parent = "providers/\(provider)"
        let group = DispatchGroup()
        let failure = Mutex<(any Error)?>(nil)
        for part in 0..<8 {
            DispatchQueue.global().async(group: group) {
                do {
                    for i in stride(from: part, to: watches, by: 8) {
                        _ = try client.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v\(i)", vehicle: Vehicle(
                            vehicleState: .online, supportedTripTypes: [.exclusive],
                            lastLocation: VehicleLocation(location: location(i, step: 0)),
                            maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
                        _ = try client.createTrip(CreateTripRequest(parent: parent, tripId: "t\(i)", trip: Trip(
                            vehicleId: "v\(i)", tripType: .exclusive,
                            pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)),
                            dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.43)))))
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    static func location(_ vehicle: Int, step: Int) -> LatLng {
        LatLng(latitude: 52.5 + Double(vehicle % 100) * 1e-4 + Double(step % 500) * 1e-5, longitude: 13.4 + Double(vehicle / 100) * 1e-4)
    }

    static func update(_ client: RESTClient, vehicle: Int, step: Int, provider: String = WatchBenchmarks.provider) throws {
        _ = try client.updateVehicle(UpdateVehicleRequest(
            name: "providers/\(provider)/vehicles/v\(vehicle)",
            vehicle: Vehicle(lastLocation: VehicleLocation(location: location(vehicle, step: step))),
            updateMask: FieldMask(["lastLocation"])))
    }

    /// Each of `writers` threads updates its own vehicles in turn for `seconds`; each update's latency
    /// is until the event reaches that vehicle's trip's watch.
    static func oneWatchPerTrip(server: BenchServer) throws -> BenchmarkRow {
        let streams = try WatchStreams(port: server.port, targets: (0..<watches).map { "/v1/providers/\(provider)/trips/t\($0):watch" })
        defer { streams.close() }
        guard streams.waitForEvents(atLeast: Array(repeating: 1, count: watches), timeout: 30) else {
            return BenchmarkRow(name: "watch latency, \(watches) watches", failed: "not every watch got its first event")
        }
        let eventLatencies = Mutex<[Double]>([]), roundTrips = Mutex<[Double]>([])
        let failure = Mutex<(any Error)?>(nil)
        let deadline = Date(timeIntervalSinceNow: seconds)
        let group = DispatchGroup()
        for writer in 0..<writers {
            DispatchQueue.global().async(group: group) {
                do {
                    let client = try RESTClient(baseURL: server.url)
                    var step = 1
                    while Date() < deadline {
                        for vehicle in stride(from: writer, to: watches, by: writers) where Date() < deadline {
                            let seen = streams.eventCount(vehicle)
                            let start = DispatchTime.now().uptimeNanoseconds
                            try update(client, vehicle: vehicle, step: step)
                            let acknowledged = DispatchTime.now().uptimeNanoseconds
                            guard let arrival = streams.waitForEvent(on: vehicle, after: seen, timeout: 10) else {
                                throw StreamFailure(description: "no event on t\(vehicle) within 10 s")
                            }
                            roundTrips.withLock { $0.append(Double(acknowledged - start) / 1e6) }
                            eventLatencies.withLock { $0.append(Double(arrival - start) / 1e6) }
                        }
                        step += 1
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        let events = eventLatencies.withLock { $0 }.sorted(), trips = roundTrips.withLock { $0 }.sorted()
        return BenchmarkRow(
            name: "watch latency, \(watches) watches on \(watches) trips, \(writers) writers (UpdateVehicle → event)",
            value: .milliseconds(percentile(events, 0.99), decimals: 1, statistic: "p99"),
            comparison: String(format: "p50 %.1f ms; UpdateVehicle round trip p50 %.1f / p99 %.1f ms (baseline); %d updates; aim p99 <= 50 ms",
                               percentile(events, 0.5), percentile(trips, 0.5), percentile(trips, 0.99), events.count))
    }

    /// Every watch follows one trip; each update of its vehicle must reach all of them.
    static func allWatchingOneTrip(server: BenchServer, client: RESTClient) throws -> BenchmarkRow {
        let streams = try WatchStreams(port: server.port, targets: Array(repeating: "/v1/providers/\(provider)/trips/t0:watch", count: watches))
        defer { streams.close() }
        guard streams.waitForEvents(atLeast: Array(repeating: 1, count: watches), timeout: 30) else {
            return BenchmarkRow(name: "watch fan-out, \(watches) watches", failed: "not every watch got its first event")
        }
        var latencies: [Double] = [], lasts: [Double] = []
        for step in 1...40 {
            let seen = (0..<watches).map { streams.eventCount($0) }
            let start = DispatchTime.now().uptimeNanoseconds
            try update(client, vehicle: 0, step: step)
            guard streams.waitForEvents(atLeast: seen.map { $0 + 1 }, timeout: 10) else {
                throw StreamFailure(description: "an update did not reach every watch within 10 s")
            }
            let arrivals = (0..<watches).map { Double(streams.lastArrival($0) - start) / 1e6 }
            latencies += arrivals
            lasts.append(arrivals.max() ?? 0)
        }
        latencies.sort()
        lasts.sort()
        return BenchmarkRow(
            name: "watch fan-out, \(watches) watches on one trip (UpdateVehicle → event)",
            value: .milliseconds(percentile(latencies, 0.99), decimals: 1, statistic: "p99"),
            comparison: String(format: "p50 %.1f ms; last of the %d: p50 %.1f ms, max %.1f ms; aim p99 <= 50 ms",
                               percentile(latencies, 0.5), watches, percentile(lasts, 0.5), lasts.last ?? 0))
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}

struct StreamFailure: Error, CustomStringConvertible {
    var description: String
}

/// Many `:watch` streams read by one thread with poll(2): counts the `trip` events of each and when
/// the last one arrived. Plain HTTP/1.0 GETs, so the stream is the body as it is, without chunking.
final class WatchStreams: @unchecked Sendable {
    private var sockets: [Int32] = []
    private struct Progress {
        var counts: [Int]
        var arrivals: [UInt64]
        var stopped = false
    }

    /// The reader thread updates it; measurements wait on it for events.
    private let progress: WaitableState<Progress>
    /// The reader thread's own.
    private var tails: [[UInt8]]
    private var reader: WorkerThread?
    private static let marker = Array("event: trip\n".utf8)

    init(port: UInt16, targets: [String]) throws {
        progress = WaitableState(Progress(counts: Array(repeating: 0, count: targets.count),
                                          arrivals: Array(repeating: 0, count: targets.count)))
        tails = Array(repeating: [], count: targets.count)
        for target in targets {
            let socket = try Self.connect(port: port)
            let request = Array("GET \(target) HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
            guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
                throw StreamFailure(description: "could not send a watch request")
            }
            sockets.append(socket)
        }
        reader = WorkerThread.start(name: "watch-reader", stackSize: 1 << 20) { [unowned self] in self.readLoop() }
    }

    func close() {
        progress.withLock { $0.stopped = true }
        reader?.join()
        for socket in sockets { Glibc.close(socket) }
        sockets = []
    }

    func eventCount(_ stream: Int) -> Int {
        progress.withLock { $0.counts[stream] }
    }

    func lastArrival(_ stream: Int) -> UInt64 {
        progress.withLock { $0.arrivals[stream] }
    }

    /// When stream `stream` got an event past `seen` (uptime ns), nil on timeout.
    func waitForEvent(on stream: Int, after seen: Int, timeout: Double) -> UInt64? {
        progress.wait(until: { $0.counts[stream] > seen }, deadline: .now + .seconds(timeout)) { progress, isReady in
            isReady ? progress.arrivals[stream] : nil
        }
    }

    /// Waits until every stream has at least the given number of events.
    func waitForEvents(atLeast wanted: [Int], timeout: Double) -> Bool {
        progress.wait(until: { !zip($0.counts, wanted).contains(where: { $0 < $1 }) }, timeout: .seconds(timeout))
    }

    private func readLoop() {
        var fds = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if progress.withLock({ $0.stopped }) { return }
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
            let now = DispatchTime.now().uptimeNanoseconds
            var found: [(Int, Int)] = []
            for i in fds.indices where fds[i].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(fds[i].fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 {
                    fds[i].fd = -1  // closed: poll ignores negative descriptors
                    continue
                }
                let events = countMarkers(stream: i, bytes: buffer[0..<n])
                if events > 0 { found.append((i, events)) }
            }
            if found.isEmpty { continue }
            progress.update { progress in
                for (i, events) in found {
                    progress.counts[i] += events
                    progress.arrivals[i] = now
                }
            }
        }
    }

    /// `trip` events in the stream's new bytes, a marker split across reads included.
    private func countMarkers(stream: Int, bytes: ArraySlice<UInt8>) -> Int {
        let text = tails[stream] + bytes
        let marker = Self.marker
        var count = 0
        var i = 0
        while i + marker.count <= text.count {
            if text[i] == marker[0] && text[i..<(i + marker.count)].elementsEqual(marker) {
                count += 1
                i += marker.count
            } else {
                i += 1
            }
        }
        tails[stream] = Array(text.suffix(marker.count - 1))
        return count
    }

    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StreamFailure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw StreamFailure(description: "connect: \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
