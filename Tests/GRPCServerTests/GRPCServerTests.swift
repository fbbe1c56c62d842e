import FleetErrors
import Foundation
@testable import GRPCServer
import Testing

/// The generic gRPC server on gRPC's C core, with handlers of the test's own, called over HTTP/2 by
/// nghttp (Debian nghttp2-client) with hand-framed messages.
@Suite(.serialized) struct GRPCServerTests {
    struct Answer {
        var status: Int?
        var message: String
        var output: String
    }

    /// Calls `method` with `message` through nghttp, as a gRPC client frames it.
    static func call(_ target: String, _ method: String, _ message: [UInt8], headers: [String] = []) throws -> Answer {
        let process = try start(target, method, message, headers: headers)
        return finish(process)
    }

    static func start(_ target: String, _ method: String, _ message: [UInt8], headers: [String] = []) throws -> (Process, Pipe, URL) {
        try start(target, method, body: frame(message), headers: headers)
    }

    /// One message in gRPC's framing: not compressed, 4-byte big-endian length, the bytes.
    static func frame(_ message: [UInt8]) -> [UInt8] {
        let n = UInt32(message.count)
        return [0, UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] + message
    }

    /// Starts nghttp sending `body` as the request's DATA, framed or not.
    static func start(_ target: String, _ method: String, body bytes: [UInt8], headers: [String] = []) throws -> (Process, Pipe, URL) {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-server-test-\(UUID().uuidString)")
        try Data(bytes).write(to: body)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nghttp")
        process.arguments = ["-v", "-t", "20", "-H", "content-type: application/grpc", "-H", "te: trailers", "-d", body.path]
            + headers.flatMap { ["-H", $0] } + ["http://\(target)\(method)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output, body)
    }

    static func finish(_ started: (Process, Pipe, URL)) -> Answer {
        let (process, output, body) = started
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: body)
        let text = String(decoding: data, as: UTF8.self)
        func trailer(_ name: String) -> String? {
            text.split(separator: "\n").lazy.compactMap { line -> String? in
                guard let range = line.range(of: ") \(name): ") else { return nil }
                return String(line[range.upperBound...])
            }.first
        }
        return Answer(status: trailer("grpc-status").flatMap { Int($0) }, message: (trailer("grpc-message") ?? "").removingPercentEncoding ?? "",
                      output: text)
    }

    /// `/test.Echo/Echo` answers what it saw; `/test.Echo/Slow` answers after `slow`, from another
    /// thread; any other method answers NOT_FOUND. Echo and Slow are registered methods, whose path the
    /// core matches; `/test.Other/Echo` answers as Echo does, through the core's request
    /// for any method.
    static func server(slow: Duration = .seconds(1), pendingCalls: Int = 16, maxMessageBytes: Int = 4 << 20,
                       maxConcurrentStreams: Int = 100) throws -> (GRPCServer, String) {
        var configuration = GRPCServer.Configuration()
        configuration.threads = 2
        configuration.pendingCallsPerThread = pendingCalls
        configuration.maxMessageBytes = maxMessageBytes
        configuration.maxConcurrentStreams = maxConcurrentStreams
        configuration.methods = ["/test.Echo/Echo", "/test.Echo/Slow", "/test.Echo/Echo"]
        let handler: GRPCServer.Handler = { request, responder in
            switch request.method {
            case "/test.Echo/Echo", "/test.Other/Echo":
                let text = "method=\(request.method) host=\(request.host) peer=\(request.peerAddress) authorization=\(request[metadata: "authorization"] ?? "-") "
                    + "params=\(request[metadata: "x-goog-request-params"] ?? "-") message=\(String(decoding: request.message, as: UTF8.self)) "
                    + "all=\(request.metadata.filter { $0.key.hasPrefix("x-goog") || $0.key == "authorization" }.map { "\($0.key):\($0.value)" })"
                responder.respond(.success(Array(text.utf8)))
            case "/test.Echo/Slow":
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(slow / .milliseconds(1)))) {
                    responder.respond(.success(Array("slow done".utf8)))
                }
            case "/test.Echo/Now":
                responder.respond(producing: { .success(Array("produced on \(currentThreadName())".utf8)) })
            case "/test.Echo/Later":
                // Given from a thread of the test's own after the handler has returned, as a store's
                // writer gives a write's answer.
                let giver = Thread {
                    responder.respond(producing: { .success(Array("produced on \(currentThreadName())".utf8)) })
                }
                giver.start()
            default:
                responder.respond(.failure(GRPCStatus(code: .notFound, message: "no such thing: \(request.method)")))
            }
        }
        let server = GRPCServer(configuration: configuration, handler: handler)
        let bound = try server.start()
        return (server, bound)
    }

    @Test func passesMethodMetadataPeerAndMessage() throws {
        let (server, target) = try Self.server()
        defer { server.stop(gracePeriod: .seconds(1)) }
        let answer = try Self.call(target, "/test.Echo/Echo", Array("hello".utf8),
                                   headers: ["authorization: Bearer abc", "x-goog-request-params: parent=providers/p1"])
        #expect(answer.status == 0, "\(answer.output)")
        // A registered method's call comes without the :authority: this one took that path.
        #expect(answer.output.contains("method=/test.Echo/Echo host= peer=127.0.0.1:"), "\(answer.output)")
        #expect(answer.output.contains("authorization=Bearer abc params=parent=providers/p1 message=hello"), "\(answer.output)")
        #expect(answer.output.contains(#"all=["authorization:Bearer abc", "x-goog-request-params:parent=providers/p1"]"#), "\(answer.output)")
        let failed = try Self.call(target, "/test.Other/Thing", [])
        #expect(failed.status == 5, "\(failed.output)")
        #expect(failed.message == "no such thing: /test.Other/Thing")
        let other = try Self.call(target, "/test.Other/Echo", Array("there".utf8), headers: ["authorization: Bearer xyz"])
        #expect(other.status == 0, "\(other.output)")
        #expect(other.output.contains("method=/test.Other/Echo host=\(target) peer=127.0.0.1:"), "\(other.output)")
        #expect(other.output.contains("authorization=Bearer xyz params=- message=there"), "\(other.output)")
    }

    /// The same answers for a registered method and for any other.
    @Test func aMessageOverTheLimitOrNoneIsRefusedForEveryMethod() throws {
        let (server, target) = try Self.server(maxMessageBytes: 100)
        defer { server.stop(gracePeriod: .seconds(1)) }
        for method in ["/test.Echo/Echo", "/test.Other/Echo"] {
            let large = try Self.call(target, method, [UInt8](repeating: 0x41, count: 101))
            #expect(large.status == 8, "RESOURCE_EXHAUSTED for \(method): \(large.output)")
            let fits = try Self.call(target, method, [UInt8](repeating: 0x41, count: 100))
            #expect(fits.status == 0, "\(method): \(fits.output)")
            let none = Self.finish(try Self.start(target, method, body: []))
            #expect(none.status == 3, "INVALID_ARGUMENT for \(method): \(none.output)")
            #expect(none.message.contains("no request message"), "\(none.message)")
        }
        #expect(Self.settles(server), "every call counted out: \(server.callsInFlight) in flight")
    }

    /// Whether the calls in flight fall to none within a few seconds (a call counts out once its last
    /// batch completes, just after the client has its answer).
    static func settles(_ server: GRPCServer) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while server.callsInFlight > 0 && Date() < deadline { usleep(10_000) }
        return server.callsInFlight == 0
    }

    /// h2load's report of 2,000 calls of `method` carrying one framed message, over `connections`
    /// connections with `streams` calls in flight on each (`extra`: more of its options).
    static func h2load(_ target: String, _ method: String, connections: Int, streams: Int, extra: [String] = []) throws -> String {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-load-\(UUID().uuidString)")
        try Data(frame(Array("load".utf8))).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let load = Process()
        load.executableURL = URL(fileURLWithPath: "/usr/bin/h2load")
        load.arguments = ["-n", "2000", "-c", String(connections), "-m", String(streams)] + extra
            + ["-d", body.path, "-H", "content-type: application/grpc", "-H", "te: trailers", "http://\(target)\(method)"]
        let output = Pipe()
        load.standardOutput = output
        load.standardError = output
        try load.run()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        load.waitUntilExit()
        return report
    }

    /// Calls arriving faster than they are requested from the core wait for the next request: with
    /// one call requested ahead per method and thread, 64 at once are all answered, on both paths.
    @Test func burstsBeyondTheCallsRequestedAheadAreAllAnswered() throws {
        let (server, target) = try Self.server(pendingCalls: 1)
        defer { server.stop(gracePeriod: .seconds(1)) }
        for method in ["/test.Echo/Echo", "/test.Other/Echo"] {
            let report = try Self.h2load(target, method, connections: 4, streams: 16, extra: ["-N", "10"])
            #expect(report.contains("2000 succeeded, 0 failed, 0 errored"), "\(method): \(report)")
        }
        #expect(Self.settles(server), "every call counted out: \(server.callsInFlight) in flight")
    }

    /// Each call counts against its connection until its last completion and no longer: one
    /// connection keeping the 2 streams the server advertises busy makes 2,000 calls (a thousand
    /// times the limit of 4 calls open), and none is refused.
    @Test func aConnectionsCallsCountOutAsTheyEnd() throws {
        let (server, target) = try Self.server(maxConcurrentStreams: 2)
        defer { server.stop(gracePeriod: .seconds(1)) }
        #expect(server.connectionCalls.limit == 4)
        let report = try Self.h2load(target, "/test.Echo/Echo", connections: 1, streams: 2)
        #expect(report.contains("2000 succeeded, 0 failed, 0 errored"), "\(report)")
        #expect(server.connectionCalls.refused == 0, "h2load counts a RESOURCE_EXHAUSTED answer as an HTTP success")
        #expect(server.connectionCalls.closed == 0, "no connection was closed")
        #expect(Self.settles(server), "every call counted out: \(server.callsInFlight) in flight")
    }

    /// An answer given in the handler is made and sent on the serving thread; one given later from
    /// another thread is made and sent by the server's answer thread, not by the thread that gives it.
    @Test func laterAnswersAreMadeAndSentByTheAnswerThread() throws {
        let (server, target) = try Self.server()
        defer { server.stop(gracePeriod: .seconds(1)) }
        let now = try Self.call(target, "/test.Echo/Now", [])
        #expect(now.status == 0, "\(now.output)")
        #expect(Self.producer(now.output) == "grpc-serve")
        for _ in 0..<3 {
            let later = try Self.call(target, "/test.Echo/Later", [])
            #expect(later.status == 0, "\(later.output)")
            #expect(Self.producer(later.output) == "grpc-answer")
        }
        #expect(Self.settles(server), "every call counted out: \(server.callsInFlight) in flight")
    }

    /// The thread name an answer of `/test.Echo/Now` or `Later` reports ("produced on NAME").
    static func producer(_ output: String) -> String? {
        guard let range = output.range(of: "produced on ") else { return nil }
        return String(output[range.upperBound...].prefix { $0.isLetter || $0 == "-" || $0 == "?" })
    }

    @Test func aStopFinishesTheCallsInFlight() throws {
        let (server, target) = try Self.server(slow: .seconds(1))
        let inFlight = try Self.start(target, "/test.Echo/Slow", [])
        let deadline = Date().addingTimeInterval(10)
        while server.callsInFlight == 0 && Date() < deadline { usleep(10_000) }
        #expect(server.callsInFlight == 1)
        let stopping = Date()
        server.stop(gracePeriod: .seconds(5))
        #expect(Date().timeIntervalSince(stopping) < 4, "the stop waited for the call, not for the grace period")
        let answer = Self.finish(inFlight)
        #expect(answer.status == 0, "the call in flight finished: \(answer.output)")
        #expect(answer.output.contains("slow done"), "\(answer.output)")
        #expect(server.callsInFlight == 0)
        let after = try Self.call(target, "/test.Echo/Echo", [])
        #expect(after.status != 0, "no calls once stopped: \(after.output)")
    }

    @Test func aStopPastTheGracePeriodCancelsTheCall() throws {
        let (server, target) = try Self.server(slow: .seconds(2))
        let inFlight = try Self.start(target, "/test.Echo/Slow", [])
        let deadline = Date().addingTimeInterval(10)
        while server.callsInFlight == 0 && Date() < deadline { usleep(10_000) }
        server.stop(gracePeriod: .milliseconds(200))
        let answer = Self.finish(inFlight)
        #expect(answer.status != 0, "cancelled, not answered: \(answer.output)")
        #expect(server.callsInFlight == 0)
    }

    @Test func anAddressInUseIsListenFailed() throws {
        let (server, target) = try Self.server()
        defer { server.stop(gracePeriod: .seconds(1)) }
        var configuration = GRPCServer.Configuration()
        configuration.port = Int(target.split(separator: ":").last ?? "") ?? 0
        let second = GRPCServer(configuration: configuration) { _, responder in responder.respond(.success([])) }
        #expect {
            _ = try second.start()
        } throws: { error in
            (error as? FleetError)?.cause == ErrorCause.listenFailed.id
        }
    }

    /// Abseil's lock-order checking (on in Debian's build) is found in libgrpc's Abseil and turned off
    /// when a server starts; should a new Abseil rename its namespace, this fails and says so.
    @Test func abseilLockOrderCheckingIsOff() throws {
        let (server, _) = try Self.server()
        defer { server.stop(gracePeriod: .seconds(1)) }
        #expect(GRPCServer.deadlockDetectionOff, "absl::SetMutexDeadlockDetectionMode not found under the names GRPCServer knows")
    }

    /// Each serving thread polls its own connections (the core's `poll` engine), rather than waiting
    /// for a call handed over by the one thread that waits in `epoll` for all of them (`epoll1`, the
    /// core's Linux default): every idle serving thread sits in `poll`, none in `epoll_wait` or on a
    /// futex. Then it answers calls as before.
    @Test func everyServingThreadPollsItsOwnConnections() throws {
        let (server, target) = try Self.server()
        defer { server.stop(gracePeriod: .seconds(1)) }
        let echo = try Self.call(target, "/test.Echo/Echo", Array("hello".utf8))
        #expect(echo.status == 0, "\(echo.output)")
        // A thread may be between waits as it is read: look again for up to two seconds. (A server
        // another suite runs in this process at the same time adds its threads, polling too.)
        var waits: [Int] = []
        for _ in 0..<20 {
            waits = Self.servingThreadSyscalls()
            if waits.count >= 2 && waits.allSatisfy(Self.pollCalls.contains) { break }
            usleep(100_000)
        }
        #expect(waits.count >= 2, "serving threads found: \(waits)")
        #expect(waits.allSatisfy(Self.pollCalls.contains), "system calls the serving threads wait in: \(waits), poll is \(Self.pollCalls)")
    }

    /// `poll` and `ppoll` (the core's poll engine calls `poll`, which is `ppoll` where there is no `poll`).
    #if arch(x86_64)
    static let pollCalls: Set<Int> = [7, 271]
    #elseif arch(arm64)
    static let pollCalls: Set<Int> = [73]
    #else
    static let pollCalls: Set<Int> = []
    #endif

    /// The system call each `grpc-serve` thread of this process is in (`/proc/self/task/TID/syscall`).
    static func servingThreadSyscalls() -> [Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task -> Int? in
            let folder = "/proc/self/task/\(task)"
            guard let name = try? String(contentsOfFile: folder + "/comm", encoding: .utf8),
                  name.trimmingCharacters(in: .whitespacesAndNewlines) == "grpc-serve",
                  let call = try? String(contentsOfFile: folder + "/syscall", encoding: .utf8) else { return nil }
            return Int(call.split(separator: " ").first ?? "") ?? -1
        }
    }

    /// A peer name of the core's is matched with a socket's address, an IPv4-mapped IPv6 address
    /// as the IPv4 one (as the core names it).
    @Test func peerNamesMatchSocketAddresses() {
        let v4 = ConnectionSocket.Address(peer: "ipv4:127.0.0.1:40312")
        #expect(v4?.ip == [127, 0, 0, 1] && v4?.port == 40312)
        #expect(ConnectionSocket.Address(peer: "ipv6:%5B::ffff:127.0.0.1%5D:40312") == v4)
        let v6 = ConnectionSocket.Address(peer: "ipv6:%5B::1%5D:9")
        #expect(v6?.ip == Array(repeating: 0, count: 15) + [1] && v6?.port == 9)
        #expect(ConnectionSocket.Address(peer: "ipv6:%5Bfe80::1%25eth0%5D:9")?.ip.first == 0xfe)
        #expect(ConnectionSocket.Address(peer: "unix:/run/fleet.sock") == nil)
        #expect(ConnectionSocket.Address(peer: "ipv4:not-an-address:1") == nil)
    }

    /// The socket of a connection found by its peer's name and the local port is shut down, and
    /// what its client had sent unread is dropped: the client reads the end of the stream. Another
    /// port or peer is left alone.
    @Test func aConnectionsSocketIsShutDownByItsPeerName() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } }
        #expect(connected == 0)
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        let sent = [UInt8](repeating: 7, count: 4096)
        #expect(send(client, sent, sent.count, 0) == sent.count)
        var clientAddress = sockaddr_in()
        var clientLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &clientAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &clientLength) } }
        let localPort = Int(UInt16(bigEndian: address.sin_port)), clientPort = Int(UInt16(bigEndian: clientAddress.sin_port))

        #expect(!ConnectionSocket.shutDown(peer: "ipv4:127.0.0.1:\(clientPort)", localPort: localPort == 1 ? 2 : 1))
        #expect(!ConnectionSocket.shutDown(peer: "ipv4:127.0.0.2:\(clientPort)", localPort: localPort))
        #expect(ConnectionSocket.shutDown(peer: "ipv4:127.0.0.1:\(clientPort)", localPort: localPort))
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(recv(accepted, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == 0, "the server's side reads the end, not the bytes sent")
        var tv = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        #expect(recv(client, &buffer, buffer.count, 0) <= 0, "the client reads the end (or a reset)")
    }

    /// The core's peer names without their scheme; only IPv6's brackets come percent-encoded.
    @Test func peerAddressesDropTheSchemeAndDecodeBrackets() {
        #expect(GRPCRequest(method: "/m", peer: "ipv4:127.0.0.1:40312").peerAddress == "127.0.0.1:40312")
        #expect(GRPCRequest(method: "/m", peer: "ipv6:%5B::1%5D:40312").peerAddress == "[::1]:40312")
        #expect(GRPCRequest(method: "/m", peer: "unix:/run/fleet.sock").peerAddress == "/run/fleet.sock")
        #expect(GRPCRequest(method: "/m", peer: "something-else").peerAddress == "something-else")
    }
}

/// The calling thread's name as the kernel knows it (what top and perf show).
private func currentThreadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
}
