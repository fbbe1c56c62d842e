import FleetModel
import FleetTestSupport
import Foundation
import Glibc
import RESTClient
import Testing

/// Many `:watch` streams on a real `fleet-admin serve` with few threads: streams hold no thread
/// (neither the server's nor one of their own), other requests are still answered, and one update
/// reaches every stream.
@Suite(.serialized) struct WatchScaleTests {
    static let streams = 300

    @Test func manyWatchesHoldNoThreadsAndAllSeeEachChange() throws {
        let server = try ServerProcess(arguments: ["--threads", "2"])
        defer { server.stop() }
        let client = try RESTClient(baseURL: server.url)
        let parent = "providers/p"
        _ = try client.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive],
            lastLocation: VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.4)),
            maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        _ = try client.createTrip(CreateTripRequest(parent: parent, tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive,
            pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)))))
        let threadsBefore = try Self.threadCount(server.process.processIdentifier)

        let sockets = try (0..<Self.streams).map { _ in try WatchSocket(url: server.url, target: "/v1/\(parent)/trips/t1:watch") }
        defer { sockets.forEach { $0.close() } }
        for socket in sockets { #expect(try socket.readEvents(until: 1) == 1) }

        let threadsWatching = try Self.threadCount(server.process.processIdentifier)
        #expect(threadsWatching < threadsBefore + 20, "threads grew from \(threadsBefore) to \(threadsWatching) with \(Self.streams) watches")
        let health = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/healthz"))
        #expect(health.status == 200)
        let metrics = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/metrics"))
        #expect(metrics.body.contains("fleet_open_watches \(Self.streams)"))

        _ = try client.updateVehicle(UpdateVehicleRequest(
            name: "\(parent)/vehicles/v1",
            vehicle: Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: 52.505, longitude: 13.405))),
            updateMask: FieldMask(["lastLocation"])))
        for socket in sockets {
            #expect(try socket.readEvents(until: 2) == 2)
            #expect(socket.received.contains("52.505"))
        }
    }

    /// `Threads:` of /proc/PID/status.
    static func threadCount(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
    }
}

/// One `:watch` stream read with plain sockets (HTTP/1.0, so the body is not chunked).
final class WatchSocket {
    let fd: Int32
    private(set) var received = ""

    init(url: String, target: String) throws {
        fd = try RawHTTP.connect(url)
        let request = Array("GET \(target) HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            Glibc.close(fd)
            throw POSIXError(.EPIPE)
        }
    }

    /// Reads until `count` trip events have arrived in all (or 10 s pass); returns how many have.
    func readEvents(until count: Int) throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while events < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return events
    }

    private var events: Int { received.components(separatedBy: "event: trip\n").count - 1 }

    func close() { Glibc.close(fd) }
}
