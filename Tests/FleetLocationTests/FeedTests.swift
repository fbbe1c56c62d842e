import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import Foundation
import Glibc
import Testing
import FleetConcurrency

@Suite("Feeds: replays, simulations, streams and gpsd")
struct FeedTests {
    static let start = GeoPoint(latitude: 52.37, longitude: 4.89)

    @Test("A replay keeps the recorded spacing, caps long gaps, and re-stamps samples on the feed's clock")
    func replayPacing() {
        let base = 1_600_000_000.0
        let times: [Double?] = [0, 1, 3, nil, 500, 500]
        let samples = times.enumerated().map { index, time in
            LocationSample(point: offset(Self.start, bearing: 0, meters: Double(index)), time: time.map { Timestamp(timeIntervalSince1970: base + $0) })
        }
        let feed = ReplayFeed(description: "test", samples: samples, maximumGapSeconds: 60, secondsWithoutTimes: 1)
        #expect(feed.offsets == [0, 1, 3, 4, 64, 64])
        let time = ManualTimeSource(start: 1_000)
        let sink = RecordingSink()
        #expect(feed.run(into: sink, time: time, cancellation: Cancellation()) == .finished)
        #expect(sink.samples.map { $0.time?.timeIntervalSince1970 } == [1000, 1001, 1003, 1004, 1064, 1064])
        #expect(sink.samples.map(\.point) == samples.map(\.point))
        #expect(time.now() == 1064, "the feed waited on its clock")
    }

    @Test("A cancelled replay stops before its next sample")
    func replayCancels() {
        let samples = (0..<5).map { LocationSample(point: offset(Self.start, bearing: 0, meters: Double($0))) }
        let cancellation = Cancellation()
        cancellation.cancel()
        let sink = RecordingSink()
        #expect(ReplayFeed(description: "t", samples: samples).run(into: sink, time: ManualTimeSource(), cancellation: cancellation) == .cancelled)
        #expect(sink.samples.isEmpty)
    }

    @Test("A real NMEA log replays through LocationFeeds with its decoder counters")
    func replayNMEAFile() throws {
        let feed = try LocationFeeds.replay(text: try SharedData.nmeaLog("haicom-305N.log"), format: .nmea, name: "haicom")
        let sink = RecordingSink()
        #expect(feed.run(into: sink, time: ManualTimeSource(), cancellation: Cancellation()) == .finished)
        #expect(sink.samples.count == feed.samples.count)
        #expect(sink.statistics?.samples == feed.samples.count)
        #expect(sink.samples.count > 10)
    }

    @Test("A file without any usable location is refused")
    func emptyReplayRefused() {
        let error = #expect(throws: FleetError.self) {
            try LocationFeeds.replay(text: "$GPGGA,1*00\nnonsense\n", format: .nmea, name: "junk.nmea")
        }
        #expect(error?.message.contains("junk.nmea holds no usable location") == true)
        #expect(error?.message.contains("2 bad lines") == true)
    }

    @Test("A simulated drive emits a sample per second until it arrives at the route's end")
    func simulatedFeed() throws {
        let points = [Self.start, offset(Self.start, bearing: 90, meters: 300)]
        let simulator = DriveSimulator(route: try #require(Route(points: points)),
                                       style: DrivingStyle(cruiseMetersPerSecond: 10, acceleration: 2, deceleration: 2))
        let time = ManualTimeSource(start: 5_000)
        let sink = RecordingSink()
        let end = SimulatedFeed(description: "sim", simulator: simulator).run(into: sink, time: time, cancellation: Cancellation())
        #expect(end == .finished)
        let samples = sink.samples
        #expect(samples.count == Int(simulator.totalSeconds.rounded(.up)) + 1)
        #expect(samples.first?.time == Timestamp(seconds: 5_000))
        #expect(Geodesy.distance(try #require(samples.last).point, points[1]) < 0.01)
        #expect(time.now() == 5_000 + simulator.totalSeconds)
    }

    @Test("A stream feed reads lines as they come from a pipe and ends at end of input")
    func streamFeed() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let text = """
            {"lat": 52.37, "lng": 4.89}
            broken
            {"lat": 52.38, "lng": 4.90}

            """
        _ = text.withCString { write(descriptors[1], $0, strlen($0)) }
        close(descriptors[1])
        let sink = RecordingSink()
        let feed = StreamFeed(description: "pipe", fileDescriptor: descriptors[0], decoder: JSONLinesLocationDecoder())
        #expect(feed.run(into: sink, time: ManualTimeSource(), cancellation: Cancellation()) == .finished)
        #expect(sink.samples.count == 2)
        #expect(sink.statistics?.bad == 1)
        #expect(sink.events.contains { if case .badInput = $0 { true } else { false } })
    }
}

/// A stand-in for gpsd on loopback: accepts connections one after another and sends each its lines, then
/// closes it, as a gpsd that restarts does.
final class LineServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        try #require(listen(descriptor, 4) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Serves `sessions` connections, one after another, each getting its lines after reading the WATCH command.
    func serve(_ sessions: [[String]]) -> Thread {
        let thread = Thread { [self] in
            for lines in sessions {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 256)
                _ = read(connection, &buffer, buffer.count)
                for line in lines { _ = (line + "\n").withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
                close(connection)
            }
        }
        thread.start()
        return thread
    }

    deinit { close(listener) }
}

@Suite("gpsd feed over TCP")
struct GPSDFeedTests {
    @Test("The feed sends WATCH, reads TPV fixes, and reconnects when gpsd goes away")
    func reconnects() async throws {
        let server = try LineServer()
        _ = server.serve([
            [#"{"class":"VERSION","release":"3.22"}"#, #"{"class":"TPV","mode":3,"lat":52.1,"lon":5.1}"#, #"{"class":"TPV","mode":1}"#],
            [#"{"class":"TPV","mode":2,"lat":52.2,"lon":5.2}"#, "garbage"],
        ])
        let feed = GPSDFeed(host: "127.0.0.1", port: server.port, initialRetrySeconds: 0.05, maximumRetrySeconds: 0.05)
        let sink = RecordingSink()
        let cancellation = Cancellation()
        let run = BlockingRun { feed.run(into: sink, time: SystemTimeSource(), cancellation: cancellation) }
        // Wait (bounded) until both connections delivered their fix.
        for _ in 0..<500 where sink.samples.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        cancellation.cancel()
        #expect(try await run.result() == .cancelled)
        #expect(sink.samples.map(\.point.latitude) == [52.1, 52.2])
        let events = sink.events
        #expect(events.filter { if case .connected = $0 { true } else { false } }.count >= 2)
        #expect(events.contains { if case .disconnected = $0 { true } else { false } })
        #expect(sink.statistics?.noFix == 1)
    }

    @Test("A gpsd that is not there is reported and retried, never ends the feed")
    func unreachable() async throws {
        // A port that was bound and closed again: connecting is refused.
        let closedPort = try LineServer().port
        let feed = GPSDFeed(host: "127.0.0.1", port: closedPort, initialRetrySeconds: 0.02, maximumRetrySeconds: 0.02)
        let sink = RecordingSink()
        let cancellation = Cancellation()
        let run = BlockingRun { feed.run(into: sink, time: SystemTimeSource(), cancellation: cancellation) }
        for _ in 0..<500 where sink.events.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        cancellation.cancel()
        #expect(try await run.result() == .cancelled)
        let disconnects = sink.events.compactMap { event -> String? in
            if case .disconnected(let why, _) = event { return why }
            return nil
        }
        #expect(disconnects.count >= 2)
        #expect(disconnects.first?.contains("cannot connect") == true)
    }
}
