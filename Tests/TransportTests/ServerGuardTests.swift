import FleetErrors
import FleetModel
import FleetTestSupport
import Foundation
import Glibc
import RESTClient
import Testing

/// The real `fleet-admin serve` against clients that hold its resources or misuse the protocol:
/// slow and surplus connections, surplus watches, callers over the rate limit, cross-site and
/// rebinding requests, oversized bodies and headers, conflicting header fields. Every refusal is a
/// Google error body with the right status, never a hang.
@Suite(.serialized) struct ServerGuardTests {
    // MARK: Slow clients and too many connections

    @Test func headersTrickledPastTheDeadlineAreAnswered408() throws {
        let server = try ServerProcess(arguments: ["--header-timeout", "1s"])
        defer { server.stop() }
        let socket = try TestSocket(url: server.url)
        defer { socket.close() }
        socket.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        // One header line every 300 ms: libmicrohttpd's idle timeout (60 s) never runs out.
        for index in 0..<20 {
            Thread.sleep(forTimeInterval: 0.3)
            if !socket.send("X-Line-\(index): trickle\r\n") { break }
        }
        let answer = socket.readToEnd(timeout: 10)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(200))")
        #expect(answer.contains(#""status":"DEADLINE_EXCEEDED""#))
        #expect(answer.contains("REQUEST_TIMEOUT"))
    }

    @Test func aBodyPastTheDeadlineIsAnswered408() throws {
        let server = try ServerProcess(arguments: ["--body-timeout", "1s"])
        defer { server.stop() }
        let socket = try TestSocket(url: server.url)
        defer { socket.close() }
        socket.send("POST /v1/providers/p/vehicles?vehicleId=slow HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"vehicleState\"")
        let answer = socket.readToEnd(timeout: 10)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(200))")
        #expect(answer.contains("its body took more than 1 s"))
    }

    @Test func connectionsOverTheClientLimitAreRefusedAtOnceNotLeftWaiting() throws {
        let server = try ServerProcess(arguments: ["--max-connections-per-client", "4"])
        defer { server.stop() }
        let held = try (0..<4).map { _ in try TestSocket(url: server.url) }
        // Held connections send a byte each so the server has surely accepted them.
        for socket in held { socket.send("G") }
        Thread.sleep(forTimeInterval: 0.3)
        let surplus = try TestSocket(url: server.url)
        surplus.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let started = Date()
        let answer = surplus.readToEnd(timeout: 5)
        #expect(answer.isEmpty, "the fifth connection was served: \(answer.prefix(100))")
        #expect(Date().timeIntervalSince(started) < 4, "the fifth connection was left waiting instead of refused")
        surplus.close()
        // Another address is not limited by this one's connections.
        let other = try TestSocket(url: server.url, from: "127.0.0.2")
        other.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(other.readToEnd(timeout: 5).hasPrefix("HTTP/1.1 200"))
        other.close()
        held.forEach { $0.close() }
        Thread.sleep(forTimeInterval: 0.3)
        let health = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/healthz"))
        #expect(health.status == 200)
    }

    /// A burst of connections over the per-client limit is one summary line for that client, not a
    /// line per refused connection.
    @Test func aFloodOverTheClientLimitIsSummedUpInOneLinePerClient() throws {
        let server = try ServerProcess(arguments: ["--max-connections-per-client", "2"])
        defer { server.stop() }
        let held = try (0..<2).map { _ in try TestSocket(url: server.url) }
        for socket in held { socket.send("G") }
        Thread.sleep(forTimeInterval: 0.3)
        for _ in 0..<40 {
            let surplus = try TestSocket(url: server.url)
            _ = surplus.readToEnd(timeout: 5)
            surplus.close()
        }
        let deadline = Date().addingTimeInterval(15)
        var summary: [Substring] = []
        while Date() < deadline {
            summary = server.standardError.split(separator: "\n").filter { $0.contains("refused") && $0.contains("from 127.0.0.1") }
            if !summary.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        #expect(summary.count == 1, "\(server.standardError)")
        #expect(summary.first?.contains("refused 40 connections from 127.0.0.1") == true, "\(summary)")
        #expect(summary.first?.contains("per-client limit of 2") == true, "\(summary)")
        #expect(!server.standardError.contains("Server reached connection limit"), "\(server.standardError)")
        held.forEach { $0.close() }
    }

    @Test func connectionsOverTheServerLimitAreRefusedAtOnceNotLeftWaiting() throws {
        let server = try ServerProcess(arguments: ["--max-connections", "6", "--max-connections-per-client", "0", "--threads", "2"])
        defer { server.stop() }
        // Six idle connections from six addresses take every place.
        let held = try (0..<6).map { try TestSocket(url: server.url, from: "127.0.0.\(10 + $0)") }
        for socket in held { socket.send("G") }
        Thread.sleep(forTimeInterval: 0.3)
        let surplus = try TestSocket(url: server.url, from: "127.0.0.20")
        surplus.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let started = Date()
        #expect(surplus.readToEnd(timeout: 5).isEmpty)
        #expect(Date().timeIntervalSince(started) < 4, "the seventh connection was left waiting instead of refused")
        surplus.close()
        held.forEach { $0.close() }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/healthz")).status == 200)
    }

    @Test func watchesOverTheLimitsGet429AndAClosedWatchIsNoticedWithinSeconds() throws {
        let server = try ServerProcess(arguments: ["--max-watches", "3", "--max-watches-per-client", "2"])
        defer { server.stop() }
        try Self.createTrip(server)
        let target = "/v1/providers/p/trips/t1:watch"
        let first = try TestSocket(url: server.url)
        let second = try TestSocket(url: server.url)
        for socket in [first, second] {
            socket.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(socket.read(until: "event: trip", timeout: 10).contains("200 OK"))
        }
        let third = try RawHTTP.exchange(server.url, RawHTTP.request("GET", target))
        #expect(third.status == 429)
        #expect(third.body.contains(#""status":"RESOURCE_EXHAUSTED""#))
        #expect(third.body.contains("TOO_MANY_WATCHES"))
        #expect(third.body.contains("per client address"))

        // Another address has its own two, but the server's three are then all taken.
        let other = try TestSocket(url: server.url, from: "127.0.0.2")
        other.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(other.read(until: "event: trip", timeout: 10).contains("200 OK"))
        let fourth = try TestSocket(url: server.url, from: "127.0.0.3")
        fourth.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let refused = fourth.readToEnd(timeout: 10)
        #expect(refused.hasPrefix("HTTP/1.1 429"))
        #expect(refused.contains("the server allows 3"))
        fourth.close()

        // A client closing its watch frees it within a second or two, not at the next heartbeat (15 s).
        first.close()
        second.close()
        other.close()
        let deadline = Date().addingTimeInterval(4)
        var open = -1
        while Date() < deadline {
            open = try Self.openWatches(server)
            if open == 0 { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(open == 0, "closed watches were still open 4 s later")
        let again = try TestSocket(url: server.url)
        again.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(again.read(until: "event: trip", timeout: 10).contains("200 OK"))
        again.close()
    }

    // MARK: Quotas

    @Test func callsOverTheRateLimitGet429WithRetryAfter() throws {
        let server = try ServerProcess(arguments: ["--rate-limit", "0.5", "--rate-burst", "2"])
        defer { server.stop() }
        let request = RawHTTP.request("GET", "/v1/providers/p/vehicles/none")
        #expect(try RawHTTP.exchange(server.url, request).status == 404)
        #expect(try RawHTTP.exchange(server.url, request).status == 404)
        let socket = try TestSocket(url: server.url)
        socket.send(String(decoding: request, as: UTF8.self))
        let limited = socket.readToEnd(timeout: 10)
        socket.close()
        #expect(limited.hasPrefix("HTTP/1.1 429"), "\(limited.prefix(200))")
        #expect(limited.contains("Retry-After: 2\r\n"), "\(limited.prefix(300))")
        #expect(limited.contains(#""status":"RESOURCE_EXHAUSTED""#))
        #expect(limited.contains("RATE_LIMITED"))
        // Another address has its own quota.
        let other = try TestSocket(url: server.url, from: "127.0.0.2")
        other.send(String(decoding: request, as: UTF8.self))
        #expect(other.readToEnd(timeout: 10).hasPrefix("HTTP/1.1 404"))
        other.close()
    }

    @Test func withTokensEachTokenHasItsOwnQuotaWhateverItsAddress() throws {
        let folder = try Products.temporaryDirectory("rate-tokens")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokens = try MintedTokens(folder: folder, provider: "p")
        let server = try ServerProcess(arguments: tokens.serverArguments + ["--rate-limit", "0.5", "--rate-burst", "1"])
        defer { server.stop() }
        let first = try tokens.mint(role: "driver", ["--vehicle", "cab-1"])
        let second = try tokens.mint(role: "driver", ["--vehicle", "cab-2"])
        func status(_ token: String, vehicle: String) throws -> (Int?, String) {
            let answer = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles/\(vehicle)",
                                                                          headers: [("Authorization", "Bearer \(token)")]))
            return (answer.status, answer.body)
        }
        #expect(try status(first, vehicle: "cab-1").0 == 404)
        // The same address, another token: its own bucket.
        #expect(try status(second, vehicle: "cab-2").0 == 404)
        let (limited, body) = try status(first, vehicle: "cab-1")
        #expect(limited == 429)
        #expect(body.contains("as driver vehicleid cab-1"), "\(body)")
        #expect(!body.contains("127.0.0.1"), "the quota was the address's, not the token's: \(body)")

        // Delivery drivers of one issuer are told apart by their deliveryvehicleid.
        let vanOne = try tokens.mint(role: "driver", ["--delivery-vehicle", "van-1"])
        let vanTwo = try tokens.mint(role: "driver", ["--delivery-vehicle", "van-2"])
        func van(_ token: String, _ id: String) throws -> (Int?, String) {
            let answer = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/deliveryVehicles/\(id)",
                                                                          headers: [("Authorization", "Bearer \(token)")]))
            return (answer.status, answer.body)
        }
        #expect(try van(vanOne, "van-1").0 != 429)
        #expect(try van(vanTwo, "van-2").0 != 429)
        let (vanLimited, vanBody) = try van(vanOne, "van-1")
        #expect(vanLimited == 429)
        #expect(vanBody.contains("as driver deliveryvehicleid van-1"), "\(vanBody)")
    }

    @Test func theRESTClientWaitsAtLeastRetryAfterAndThenSucceeds() throws {
        let server = try ServerProcess(arguments: ["--rate-limit", "0.5", "--rate-burst", "1"])
        defer { server.stop() }
        let client = try RESTClient(baseURL: server.url)
        let vehicle = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                              vehicleType: VehicleType(category: .auto))
        _ = try client.createVehicle(CreateVehicleRequest(parent: "providers/p", vehicleId: "v1", vehicle: vehicle))
        let started = Date()
        // Over the limit at once: the server answers 429 with Retry-After: 2, the client waits and sends again.
        let read = try client.getVehicle(GetVehicleRequest(name: "providers/p/vehicles/v1"))
        #expect(read.name == "providers/p/vehicles/v1")
        #expect(Date().timeIntervalSince(started) >= 1.9, "the client retried before Retry-After")
        // A client that may not retry reports the wait it was given.
        let impatient = try RESTClient(baseURL: server.url, retry: .never)
        do {
            _ = try impatient.getVehicle(GetVehicleRequest(name: "providers/p/vehicles/v1"))
            Issue.record("a second call within the second was not limited")
        } catch let error as FleetError {
            #expect(error.code == .resourceExhausted)
            #expect(error.retryAfter == .seconds(2))
        }
    }

    @Test func driverReportWaitsOutTheRateLimitAndItsUpdateLands() throws {
        let server = try ServerProcess(arguments: ["--rate-limit", "0.5", "--rate-burst", "1"])
        defer { server.stop() }
        let client = try RESTClient(baseURL: server.url)
        _ = try client.createVehicle(CreateVehicleRequest(parent: "providers/p", vehicleId: "cab", vehicle: Vehicle(
            vehicleState: .offline, supportedTripTypes: [.exclusive], maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        // The create took the one request the bucket held: the report is answered 429, Retry-After: 2.
        let started = Date()
        let run = try BinaryRunner(product: "driver-report").run(
            ["--transport", server.url, "--provider", "p", "--vehicle", "cab", "--state", "online"], timeout: 30)
        #expect(run.status == 0, "\(run)")
        #expect(Date().timeIntervalSince(started) >= 1.9, "driver-report sent again before Retry-After")
        let vehicle = try client.getVehicle(GetVehicleRequest(name: "providers/p/vehicles/cab"))
        #expect(vehicle.vehicleState == .online)
    }

    @Test func consumerFollowWaitsOutTheRateLimitAndFollows() throws {
        let server = try ServerProcess(arguments: ["--rate-limit", "0.5", "--rate-burst", "1"])
        defer { server.stop() }
        try Self.createTrip(server)  // two calls: the second already waited for the first's Retry-After
        let started = Date()
        let run = try BinaryRunner(product: "consumer-follow").run(
            ["--transport", server.url, "--provider", "p", "t1", "--poll", "--fail-fast", "--until", "NEW", "--json"], timeout: 30)
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("providers/p/trips/t1"))
        #expect(!run.output.contains("RESOURCE_EXHAUSTED"), "\(run.output)")
        #expect(Date().timeIntervalSince(started) >= 1.9, "consumer-follow sent again before Retry-After")
    }

    // MARK: Cross-site requests and DNS rebinding

    @Test func withoutTokensOnlyLoopbackAndAllowedHostsAreAnswered() throws {
        let server = try ServerProcess(arguments: ["--allow-host", "fleet.internal"])
        defer { server.stop() }
        func status(host: String) throws -> (Int?, String) {
            let request = Array("GET /v1/providers/p/vehicles/none HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
            let answer = try RawHTTP.exchange(server.url, request)
            return (answer.status, answer.body)
        }
        for host in ["localhost:8080", "127.0.0.1", "127.0.0.1:9", "[::1]:8080", "LOCALHOST", "fleet.internal:80"] {
            #expect(try status(host: host).0 == 404, "Host \(host) was refused")
        }
        // A rebinding page's own name, even one that looks like a loopback address.
        #expect(try status(host: "127.0.0.1.attacker.example").0 == 403)
        #expect(try status(host: "localhost.attacker.example").0 == 403)
        let (refused, body) = try status(host: "attacker.example:8080")
        #expect(refused == 403)
        #expect(body.contains("HOST_NOT_ALLOWED"))
        #expect(body.contains("--allow-host attacker.example"))
        #expect(try RawHTTP.exchange(server.url, Array("GET /metrics HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n".utf8)).status == 403)
        #expect(try RawHTTP.exchange(server.url, Array("GET /healthz HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n".utf8)).status == 200)
    }

    @Test func aBodyWithoutAJSONContentTypeGets415() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let body = Array(#"{"vehicleState":"ONLINE"}"#.utf8)
        let missing = Array("POST /v1/providers/p/vehicles?vehicleId=x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        let answer = try RawHTTP.exchange(server.url, missing)
        #expect(answer.status == 415)
        #expect(answer.body.contains(#""status":"INVALID_ARGUMENT""#))
        #expect(answer.body.contains("no Content-Type header"))
        let vehicles = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/v1/providers/p/vehicles"))
        #expect(!vehicles.body.contains("vehicles/x"), "the refused call created a vehicle")
    }

    // MARK: Bodies and headers

    @Test func pythonsURLLibReadsThe413ForEveryOversizedBody() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let script = """
        import sys, urllib.request, urllib.error
        url = sys.argv[1] + "/v1/providers/p/vehicles?vehicleId=big"
        read = 0
        sizes = [(1 << 20) + 1 + i * 150000 for i in range(21)]
        for size in sizes:
            request = urllib.request.Request(url, data=b" " * size, headers={"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(request)
            except urllib.error.HTTPError as error:
                if error.code == 413 and b"RESOURCE_EXHAUSTED" in error.read() or error.code == 413:
                    read += 1
            except Exception as error:
                print("size", size, "failed:", repr(error))
        print(read, len(sizes))
        """
        let output = try Self.python(script, arguments: [server.url])
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("21 21"), "\(output)")
    }

    @Test func conflictingOrMissingHeaderFieldsGet400() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let cases: [(String, String)] = [
            ("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", "without a Host"),
            ("GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: other\r\nConnection: close\r\n\r\n", "2 Host header fields"),
            ("GET /v1/providers/p/vehicles HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\nConnection: close\r\n\r\n", "2 Authorization fields"),
            ("POST /v1/providers/p/vehicles?vehicleId=cl HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 25\r\nConnection: close\r\n\r\n{}", "different Content-Length values"),
        ]
        for (request, message) in cases {
            let answer = try RawHTTP.exchange(server.url, Array(request.utf8))
            #expect(answer.status == 400, "\(message): \(String(describing: answer.status))")
            #expect(answer.body.contains(message), "\(answer.body)")
            #expect(answer.body.contains("BAD_HTTP_REQUEST"))
        }
        // HTTP/1.0 needs no Host.
        #expect(try RawHTTP.exchange(server.url, Array("GET /healthz HTTP/1.0\r\n\r\n".utf8)).status == 200)
    }

    @Test func headersUpTo32KiBAreServedAndMoreGet431WithABody() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        func exchange(_ fields: [String]) throws -> RawHTTP.Answer {
            try RawHTTP.exchange(server.url, Array(("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + fields.joined() + "\r\n").utf8))
        }
        // Many fields, 31 KiB in all; one field of 31 KiB.
        let many = (0..<310).map { "X-Field-\(String(format: "%03d", $0)): \(String(repeating: "m", count: 88))\r\n" }
        #expect(try exchange(many).status == 200)
        #expect(try exchange(["X-One: \(String(repeating: "o", count: 31 * 1024))\r\n"]).status == 200)
        // One field of 33 KB, and many fields over 32 KiB in all: 431 with Google's body.
        for fields in [["X-One: \(String(repeating: "o", count: 33_000))\r\n"], many + many.prefix(30)] {
            let answer = try exchange(fields)
            #expect(answer.status == 431)
            #expect(answer.body.contains("REQUEST_HEADERS_TOO_LARGE"), "\(answer.body.prefix(200))")
        }
    }

    // MARK: Helpers

    static func createTrip(_ server: ServerProcess) throws {
        let client = try RESTClient(baseURL: server.url)
        _ = try client.createVehicle(CreateVehicleRequest(parent: "providers/p", vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive],
            lastLocation: VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.4)),
            maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        _ = try client.createTrip(CreateTripRequest(parent: "providers/p", tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive,
            pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)))))
    }

    static func openWatches(_ server: ServerProcess) throws -> Int {
        let metrics = try RawHTTP.exchange(server.url, RawHTTP.request("GET", "/metrics"))
        let line = metrics.body.split(separator: "\n").first { $0.hasPrefix("fleet_open_watches ") }
        return line.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
    }

    static func python(_ script: String, arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A TCP connection to the server, optionally from another loopback address (127.0.0.2 …), so
/// that limits per client address can be seen from one machine.
final class TestSocket: @unchecked Sendable {
    private let fd: Int32
    private var received: [UInt8] = []

    init(url: String, from source: String? = nil) throws {
        let parts = url.replacingOccurrences(of: "http://", with: "").split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else { throw POSIXError(.EINVAL) }
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { Glibc.close(fd); throw POSIXError(.EADDRNOTAVAIL) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(String(parts[0]))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { Glibc.close(fd); throw POSIXError(.ECONNREFUSED) }
    }

    /// Sends the text; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads until the server closes (or `timeout` seconds pass); returns everything read so far.
    func readToEnd(timeout: Double) -> String {
        read(until: nil, timeout: timeout)
    }

    /// Reads until `marker` has arrived, the server closes, or `timeout` seconds pass.
    func read(until marker: String?, timeout: Double) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) >= 0 else { break }
            guard entry.revents != 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() { Glibc.close(fd) }
}
