import FleetModel
import FleetTestSupport
import Foundation
import Testing

/// `fleet-admin serve --grpc-listen`: the real binary on loopback, called over HTTP/2 by nghttp and
/// h2load (Debian nghttp2-client) with hand-framed gRPC messages. Google's own Python client is run
/// against it by Tests/conformance/check_grpc.py (`make conformance`).
@Suite(.serialized) struct GRPCServeTests {
    static let provider = "providers/grpc-tests"

    static func createVehicle(_ target: String, _ id: String, scheme: String = "http") throws -> GRPCCall.Answer {
        let vehicle = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4, vehicleType: VehicleType(category: .auto))
        return try GRPCCall.call(target, "/maps.fleetengine.v1.VehicleService/CreateVehicle",
                        CreateVehicleRequest(parent: provider, vehicleId: id, vehicle: vehicle).protobufBytes(), scheme: scheme)
    }

    @Test func servesFleetEngineOverGRPCBesideREST() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)

        let created = try Self.createVehicle(target, "car-1")
        #expect(created.status == 0, "\(created.output)")
        let got = try GRPCCall.call(target, "/maps.fleetengine.v1.VehicleService/GetVehicle",
                                GetVehicleRequest(name: "\(Self.provider)/vehicles/car-1").protobufBytes(),
                                metadata: ["x-goog-request-params: name=\(Self.provider)/vehicles/car-1"])
        #expect(got.status == 0, "\(got.output)")
        #expect(got.output.contains("\(Self.provider)/vehicles/car-1"), "the Vehicle's name in the response bytes: \(got.output)")

        let duplicate = try Self.createVehicle(target, "car-1")
        #expect(duplicate.status == 6, "ALREADY_EXISTS: \(duplicate.output)")
        let missing = try GRPCCall.call(target, "/maps.fleetengine.v1.TripService/GetTrip",
                                    GetTripRequest(name: "\(Self.provider)/trips/none").protobufBytes())
        #expect(missing.status == 5, "NOT_FOUND: \(missing.output)")
        #expect(missing.message.contains("none"), "\(missing.message)")

        // A length-delimited field 1 (header) whose length runs past the end of the message.
        let malformed = try GRPCCall.call(target, "/maps.fleetengine.v1.TripService/GetTrip", [0x0a, 0xff, 0xff, 0x03, 0x41])
        #expect(malformed.status == 3, "INVALID_ARGUMENT: \(malformed.output)")
        #expect(malformed.message.contains("header"), "names the field: \(malformed.message)")
        let unknown = try GRPCCall.call(target, "/maps.fleetengine.v1.VehicleService/UpdateVehicleLocation", [])
        #expect(unknown.status == 12, "UNIMPLEMENTED: \(unknown.output)")

        // The REST server on the same engine sees the vehicle, and its metrics count the gRPC calls.
        let rest = try RawHTTP.exchange(server.url, Array("GET /v1/\(Self.provider)/vehicles/car-1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(rest.status == 200, "\(rest.body)")
        let metrics = try RawHTTP.exchange(server.url, Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(metrics.body.contains(#"fleet_grpc_requests_total{method="GetVehicle",code="OK"} 1"#), "\(metrics.body)")
        #expect(metrics.body.contains(#"fleet_grpc_requests_total{method="CreateVehicle",code="ALREADY_EXISTS"} 1"#))
        #expect(metrics.body.contains(#"fleet_grpc_requests_total{method="GetTrip",code="INVALID_ARGUMENT"} 1"#))
        #expect(server.stop() == 0)
    }

    /// A message over `--max-body` is RESOURCE_EXHAUSTED from gRPC's core, for a served method (whose
    /// message the core reads before handing the call over) as for any other path.
    @Test func refusesAMessageOverMaxBody() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0", "--max-body", "1000"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        let long = GetTripRequest(name: "\(Self.provider)/trips/" + String(repeating: "t", count: 1000)).protobufBytes()
        let large = try GRPCCall.call(target, "/maps.fleetengine.v1.TripService/GetTrip", long)
        #expect(large.status == 8, "RESOURCE_EXHAUSTED: \(large.output)")
        let elsewhere = try GRPCCall.call(target, "/maps.fleetengine.v1.TripService/NoSuchMethod", long)
        #expect(elsewhere.status == 8, "RESOURCE_EXHAUSTED: \(elsewhere.output)")
        let fits = try GRPCCall.call(target, "/maps.fleetengine.v1.TripService/GetTrip", GetTripRequest(name: "\(Self.provider)/trips/t1").protobufBytes())
        #expect(fits.status == 5, "NOT_FOUND: \(fits.output)")
        let unknown = try GRPCCall.call(target, "/maps.fleetengine.v1.TripService/NoSuchMethod", [])
        #expect(unknown.status == 12, "UNIMPLEMENTED: \(unknown.output)")
        #expect(server.stop() == 0)
    }

    /// A filter nested 2,000 parentheses deep (a 4 KB message) once overflowed a serving thread's
    /// 1 MiB stack; ListVehicles and SearchVehicles now answer INVALID_ARGUMENT naming the position.
    @Test func refusesAFilterNestedTooDeep() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        let deep = String(repeating: "(", count: 2_000) + "attributes.a=b" + String(repeating: ")", count: 2_000)
        var list = ListVehiclesRequest(parent: Self.provider, vehicleTypeCategories: [.auto])
        list.filter = deep
        let listed = try GRPCCall.call(target, "/maps.fleetengine.v1.VehicleService/ListVehicles", list.protobufBytes())
        #expect(listed.status == 3, "INVALID_ARGUMENT: \(listed.output)")
        #expect(listed.message.contains("at character 33"), "\(listed.message)")
        var search = SearchVehiclesRequest(parent: Self.provider, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.53, longitude: 13.41)),
                                           pickupRadiusMeters: 2000, count: 5, minimumCapacity: 1, tripTypes: [.exclusive],
                                           vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta)
        search.filter = deep
        let searched = try GRPCCall.call(target, "/maps.fleetengine.v1.VehicleService/SearchVehicles", search.protobufBytes())
        #expect(searched.status == 3, "INVALID_ARGUMENT: \(searched.output)")
        #expect(searched.message.contains("at character 33"), "\(searched.message)")
        #expect(try Self.createVehicle(target, "car-1").status == 0, "the server still serves")
        #expect(server.stop() == 0)
    }

    /// GetVehicle of car-1 (created before) answers OK: the server still serves.
    static func expectStillServes(_ target: String) throws {
        let got = try GRPCCall.call(target, "/maps.fleetengine.v1.VehicleService/GetVehicle",
                                    GetVehicleRequest(name: "\(provider)/vehicles/car-1").protobufBytes())
        #expect(got.status == 0, "the server still serves: \(got.output.suffix(2000))")
    }

    /// The most memory the process ever held resident (VmHWM), in bytes.
    static func peakResidentBytes(_ server: ServerProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    /// `mebibytes` MiB of zeros, gzip-compressed (about a thousandth of that), by Python's zlib.
    static func gzipBomb(mebibytes: Int) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-bomb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, 31)
            with open(sys.argv[1], "wb") as out:
                for _ in range(int(sys.argv[2])): out.write(c.compress(bytes(1 << 20)))
                out.write(c.flush())
            """, file.path, String(mebibytes)]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        return Array(try Data(contentsOf: file))
    }

    /// A gzip message of 300 KB that inflates to 300 MiB (no token needed) once grew the server by
    /// as much, `--max-body` being compared with the compressed size only: now a compressed message
    /// is UNIMPLEMENTED without being inflated, and the server's peak memory hardly moves.
    @Test func refusesACompressedMessageWithoutInflatingIt() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        #expect(try Self.createVehicle(target, "car-1").status == 0)
        let bomb = try Self.gzipBomb(mebibytes: 300)
        let before = try Self.peakResidentBytes(server)
        for method in ["/maps.fleetengine.v1.TripService/GetTrip", "/maps.fleetengine.v1.TripService/NoSuchMethod"] {
            let answer = try GRPCCall.call(target, method, bomb, metadata: ["grpc-encoding: gzip"], compressed: true)
            #expect(answer.status == 12, "UNIMPLEMENTED: \(answer.output.suffix(2000))")
        }
        let grown = try Self.peakResidentBytes(server) - before
        #expect(grown < 50 << 20, "the peak resident memory grew by \(grown >> 20) MiB")
        try Self.expectStillServes(target)
        #expect(server.stop() == 0)
    }

    /// With its database down, a gRPC call is UNAVAILABLE with a message that names neither the
    /// database's user, host, port nor name: those go to the server's log.
    @Test(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
    func aDatabaseDownIsUnavailableWithoutItsAddress() throws {
        let cluster = try PostgresCluster.makePrivate()
        let server = try ServerProcess(store: try cluster.database(named: "grpc_down"), arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        #expect(try Self.createVehicle(target, "car-1").status == 0)
        try cluster.stopImmediately()
        let down = try GRPCCall.call(target, "/maps.fleetengine.v1.VehicleService/GetVehicle",
                                 GetVehicleRequest(name: "\(Self.provider)/vehicles/car-1").protobufBytes())
        #expect(down.status == 14, "UNAVAILABLE: \(down.output.suffix(2000))")
        #expect(down.message.contains("The database is unavailable"), "\(down.message)")
        for secret in ["\(PostgresCluster.user)@", "127.0.0.1", String(cluster.port), "grpc_down"] {
            #expect(!down.message.contains(secret), "\(secret) in \(down.message)")
        }
        #expect(server.standardError.contains("STORE_UNREACHABLE") && server.standardError.contains("grpc_down"), "\(server.standardError)")
    }

    /// One HTTP/2 frame: 3-byte length, type, flags, stream.
    static func http2Frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
        let n = UInt32(payload.count)
        return [UInt8(n >> 16), UInt8((n >> 8) & 0xff), UInt8(n & 0xff), type, flags,
                UInt8(stream >> 24), UInt8((stream >> 16) & 0xff), UInt8((stream >> 8) & 0xff), UInt8(stream & 0xff)] + payload
    }

    /// The frames a server sent on `socket` until it closed it or was silent for the socket's timeout:
    /// (type, flags, stream, payload).
    static func http2Frames(_ socket: Int32, until stop: ([(UInt8, UInt8, UInt32, [UInt8])]) -> Bool = { _ in false })
        -> (frames: [(UInt8, UInt8, UInt32, [UInt8])], closed: Bool) {
        var frames: [(UInt8, UInt8, UInt32, [UInt8])] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stop(frames) {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n == 0 || (n < 0 && errno == ECONNRESET) { return (frames, true) }
            if n < 0 { return (frames, false) }
            pending += buffer[0..<n]
            while pending.count >= 9 {
                let length = Int(pending[0]) << 16 | Int(pending[1]) << 8 | Int(pending[2])
                guard pending.count >= 9 + length else { break }
                let stream = UInt32(pending[5] & 0x7f) << 24 | UInt32(pending[6]) << 16 | UInt32(pending[7]) << 8 | UInt32(pending[8])
                frames.append((pending[3], pending[4], stream, Array(pending[9..<9 + length])))
                pending.removeFirst(9 + length)
            }
        }
        return (frames, false)
    }

    /// Sends all of `bytes` on `socket`, or as much as it takes before the server closes it.
    static func write(_ socket: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// The HTTP/2 connection preface and the client's (empty) SETTINGS.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + http2Frame(type: 4)

    /// `count` streams of GetTrip (odd IDs from 1), each one HEADERS frame with END_HEADERS and no
    /// message ever. HPACK without Huffman or indexing: :method POST, :scheme http, :path,
    /// :authority, content-type application/grpc, te trailers.
    static func headerOnlyStreams(_ count: Int) -> [UInt8] {
        func literal(_ index: UInt8, _ value: String) -> [UInt8] { [index, UInt8(value.utf8.count)] + Array(value.utf8) }
        let block: [UInt8] = [0x83, 0x86] + literal(4, "/maps.fleetengine.v1.TripService/GetTrip") + literal(1, "127.0.0.1")
            + [0x0f, 0x10] + [16] + Array("application/grpc".utf8) + [0x00, 2] + Array("te".utf8) + [8] + Array("trailers".utf8)
        var streams: [UInt8] = []
        streams.reserveCapacity(count * (9 + block.count))
        for index in 0..<count { streams += http2Frame(type: 1, flags: 4, stream: UInt32(2 * index + 1), block) }
        return streams
    }

    /// 100,000 header-only streams on one connection once grew the server by 1.16 GB: it now
    /// advertises SETTINGS_MAX_CONCURRENT_STREAMS 100, and a client that has acknowledged it and
    /// opens a 101st stream has its connection closed; the server's peak memory hardly moves.
    @Test func boundsTheStreamsOfOneConnection() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        let socket = try RawHTTP.connect("http://\(target)", timeout: 3)
        defer { close(socket) }
        Self.write(socket, Self.preface)
        let greeting = Self.http2Frames(socket) { frames in frames.contains { $0.0 == 4 && $0.1 == 0 } }
        let settings = try #require(greeting.frames.first { $0.0 == 4 && $0.1 == 0 }?.3)
        let advertised = stride(from: 0, to: settings.count, by: 6).first { settings[$0] == 0 && settings[$0 + 1] == 3 }.map { i in
            settings[(i + 2)..<(i + 6)].reduce(0) { $0 << 8 | Int($1) }
        }
        #expect(advertised == 100, "SETTINGS_MAX_CONCURRENT_STREAMS in \(settings)")
        Self.write(socket, Self.http2Frame(type: 4, flags: 1))  // SETTINGS ACK

        let before = try Self.peakResidentBytes(server)
        Self.write(socket, Self.headerOnlyStreams(20_000))
        let answer = Self.http2Frames(socket)
        #expect(answer.closed, "the connection is closed past the 100th stream")
        let grown = try Self.peakResidentBytes(server) - before
        #expect(grown < 30 << 20, "the peak resident memory grew by \(grown >> 20) MiB")
        #expect(try Self.createVehicle(target, "car-1").status == 0, "the server still serves")
        #expect(server.stop() == 0)
    }

    /// gRPC 1.51's core applies SETTINGS_MAX_CONCURRENT_STREAMS only once the client has
    /// acknowledged it: 40,000 header-only streams from a client that never did grew the server from
    /// 40 to over 500 MB. The server now counts each connection's calls, cancels those past 200
    /// (twice the setting) with RESOURCE_EXHAUSTED and closes the connection at the first of them,
    /// saying why in its log: the peak memory hardly moves.
    @Test func boundsTheStreamsOfAConnectionThatNeverAcknowledgesSettings() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        #expect(try Self.createVehicle(target, "car-1").status == 0)
        let socket = try RawHTTP.connect("http://\(target)", timeout: 3)
        defer { close(socket) }
        let streams = 20_000
        let flood = Self.preface + Self.headerOnlyStreams(streams)  // and no SETTINGS ACK, ever
        let before = try Self.peakResidentBytes(server)
        // Written while the answers are read, so neither side's buffers fill.
        let writer = Thread { Self.write(socket, flood) }
        writer.start()
        let answer = Self.http2Frames(socket)
        let closed = answer.closed
        #expect(closed, "the connection is closed")
        let ended = Set(answer.frames.filter { ($0.0 == 1 && $0.1 & 1 != 0) || $0.0 == 3 }.map(\.2))
        #expect(ended.count < streams / 2, "\(ended.count) of \(streams) streams ended one by one before the connection closed")
        // Without the bound the same flood grows the peak by some 230 MB.
        let grown = try Self.peakResidentBytes(server) - before
        #expect(grown < 50 << 20, "the peak resident memory grew by \(grown >> 20) MiB")
        try Self.expectStillServes(target)
        #expect(server.stop() == 0)
        #expect(server.standardError.contains("gRPC: closed the connection from ipv4:127.0.0.1:"), "\(server.standardError)")
        #expect(server.standardError.contains("without acknowledging SETTINGS_MAX_CONCURRENT_STREAMS 100"), "\(server.standardError)")
    }

    /// The same kind of client sending 80,000 streams in bursts of 1,000, reading what the server
    /// sent between bursts (`Tests/tools/grpc_stream_flood.py`), outran the cancelling of its calls:
    /// the core made a call for each stream it read before a serving thread could refuse it, and the
    /// server peaked at 500–590 MB. Closing the connection at its first call past the limit stops it.
    @Test func boundsTheMemoryOfAConnectionFloodingStreamsInBursts() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        #expect(try Self.createVehicle(target, "car-1").status == 0)
        let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tools/grpc_stream_flood.py")
        let flood = Process()
        flood.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        flood.arguments = ["python3", tool.path, target, String(server.process.processIdentifier), "80000"]
        let output = Pipe()
        flood.standardOutput = output
        try flood.run()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        flood.waitUntilExit()
        #expect(flood.terminationStatus == 0, "\(report)")
        #expect(report.contains("connection closed"), "\(report)")
        // "VmHWM 43 -> 51 MB"
        let peaks = report.split(separator: "VmHWM ").last.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
        #expect(peaks.count == 2 && peaks[1] - peaks[0] < 100, "the peak resident memory grew by less than 100 MB: \(report)")
        try Self.expectStillServes(target)
        #expect(server.stop() == 0)
        #expect(server.standardError.contains("gRPC: closed the connection from"), "\(server.standardError)")
    }

    @Test func stopsGracefullyWithCallsInFlight() throws {
        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        #expect(try Self.createVehicle(target, "car-1").status == 0)

        // h2load keeps 64 UpdateVehicle calls in flight while the server gets SIGTERM.
        var update = UpdateVehicleRequest(name: "\(Self.provider)/vehicles/car-1",
                                          vehicle: Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.4))))
        update.updateMask = FieldMask(["last_location"])
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-load-\(UUID().uuidString)")
        try Data(GRPCCall.frame(update.protobufBytes())).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let load = Process()
        load.executableURL = URL(fileURLWithPath: "/usr/bin/h2load")
        load.arguments = ["-n", "1000000", "-c", "4", "-m", "16", "-d", body.path, "-H", "content-type: application/grpc", "-H", "te: trailers",
                          "http://\(target)/maps.fleetengine.v1.VehicleService/UpdateVehicle"]
        let output = Pipe()
        load.standardOutput = output
        load.standardError = output
        try load.run()
        defer { if load.isRunning { load.terminate(); load.waitUntilExit() } }
        Thread.sleep(forTimeInterval: 1.5)
        #expect(load.isRunning, "the load ran for the whole time")

        let started = Date()
        let status = server.stop()
        #expect(status == 0, "exit status after SIGTERM: \(server.standardError)")
        #expect(Date().timeIntervalSince(started) < 12, "stopped within the grace period")
        #expect(!server.standardError.contains("assert"), "\(server.standardError)")
        #expect(server.standardError.contains("stopped"), "\(server.standardError)")
        load.waitUntilExit()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let succeeded = report.split(separator: "\n").first { $0.hasPrefix("requests:") }
        #expect(succeeded.map { !$0.contains(" 0 succeeded") } ?? false, "calls were answered before the stop: \(report)")
    }

    @Test func servesOverTLS() throws {
        let folder = try Products.temporaryDirectory("grpc-tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("key.pem").path, certificate = folder.appendingPathComponent("cert.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        #expect(openssl.terminationStatus == 0)

        let server = try ServerProcess(arguments: ["--grpc-listen", "127.0.0.1:0", "--grpc-tls-cert", certificate, "--grpc-tls-key", key])
        defer { server.stop() }
        let target = try GRPCCall.target(server)
        let created = try Self.createVehicle(target, "car-1", scheme: "https")
        #expect(created.status == 0, "\(created.output)")
        #expect(created.output.contains("negotiated protocol: h2"), "\(created.output)")
        let plain = try Self.createVehicle(target, "car-2")
        #expect(plain.status == nil, "plain text is not answered on a TLS port: \(plain.output)")
    }

    @Test func servesGRPCAloneWithoutListen() throws {
        let process = Process()
        process.executableURL = try Products.locate("fleet-admin")
        process.arguments = ["serve", "--grpc-listen", "127.0.0.1:0", "--store", "memory", "--no-access-log"]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        environment.removeValue(forKey: "FLEET_LISTEN")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte[0] == UInt8(ascii: "\n") { break }
            line.append(byte[0])
        }
        let banner = String(decoding: line, as: UTF8.self)
        #expect(banner.hasPrefix("listening on grpc://127.0.0.1:"), "\(banner)")
        #expect(!banner.contains("http://"), "no REST without --listen: \(banner)")
        let target = try #require(banner.split(separator: " ").first { $0.hasPrefix("grpc://") }).dropFirst("grpc://".count)
        let created = try Self.createVehicle(String(target), "car-1")
        #expect(created.status == 0, "\(created.output)")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func tlsFlagsGoTogether() throws {
        let runner = try BinaryRunner(product: "fleet-admin")
        let alone = try runner.run(["serve", "--store", "memory", "--grpc-listen", "127.0.0.1:0", "--grpc-tls-cert", "/nonexistent.pem"],
                                   environment: BinaryRunner.quietEnvironment)
        #expect(alone.status == 2, "\(alone)")
        #expect(alone.error.contains("--grpc-tls-key"), "\(alone.error)")
        let noListen = try runner.run(["serve", "--store", "memory", "--grpc-tls-cert", "a.pem", "--grpc-tls-key", "b.pem"],
                                      environment: BinaryRunner.quietEnvironment)
        #expect(noListen.status == 2, "\(noListen)")
    }
}
