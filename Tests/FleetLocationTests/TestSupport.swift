import FleetGeo
import FleetLocation
import FleetModel
import Foundation
import Synchronization
import Testing

/// The project's shared data folder (`shared/` beside the repository), where the real NMEA logs are.
enum SharedData {
    /// The folder of NMEA logs, found beside the repository (`../shared/data/nmea`), in `FLEET_SHARED_DIR`,
    /// or at /work/shared.
    static func nmeaFolder(file: String = #filePath) -> String? {
        var candidates: [String] = []
        if let shared = ProcessInfo.processInfo.environment["FLEET_SHARED_DIR"] { candidates.append(shared + "/data/nmea") }
        let repository = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(repository.deletingLastPathComponent().appendingPathComponent("shared/data/nmea").path)
        candidates.append("/work/shared/data/nmea")
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/README.md") }
    }

    /// The text of one log.
    static func nmeaLog(_ name: String) throws -> String {
        let folder = try #require(nmeaFolder(), "the shared NMEA logs (shared/data/nmea beside the repository) are missing")
        return try String(contentsOfFile: folder + "/" + name, encoding: .isoLatin1)
    }

    /// The five real logs.
    static let logNames = ["bundg_zeus_9.log", "haicom-305N.log", "iTrek.log", "telit-he910.log", "ublox-8.log"]
}

/// A sink that keeps everything a feed delivers.
final class RecordingSink: LocationSink {
    private let state = Mutex<(samples: [LocationSample], statistics: DecoderStatistics?, events: [FeedEvent])>(([], nil, []))

    func receive(_ sample: LocationSample) { state.withLock { $0.samples.append(sample) } }
    func decoderStatistics(_ statistics: DecoderStatistics) { state.withLock { $0.statistics = statistics } }
    func feedEvent(_ event: FeedEvent) { state.withLock { $0.events.append(event) } }

    var samples: [LocationSample] { state.withLock { $0.samples } }
    var statistics: DecoderStatistics? { state.withLock { $0.statistics } }
    var events: [FeedEvent] { state.withLock { $0.events } }
}

/// A point `meters` from `start` at `bearing` degrees.
func offset(_ start: GeoPoint, bearing: Double, meters: Double) -> GeoPoint {
    Geodesy.destination(from: start, bearing: bearing, meters: meters)
}

/// Blocking work (a feed's loop) on a thread of its own, so it never holds one of Swift's few
/// cooperative threads; `result()` waits for it without blocking.
final class BlockingRun<Result: Sendable>: Sendable {
    private let outcome = Mutex<Result?>(nil)

    init(_ work: @escaping @Sendable () -> Result) {
        Thread { [self] in
            let value = work()
            self.outcome.withLock { $0 = value }
        }.start()
    }

    /// The result, once the work has returned (waits up to 10 s, then fails the test).
    func result() async throws -> Result {
        for _ in 0..<1000 {
            if let value = outcome.withLock({ $0 }) { return value }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try #require(outcome.withLock { $0 }, "the blocking work did not return within 10 s")
    }
}
