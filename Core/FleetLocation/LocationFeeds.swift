import FleetErrors
import FleetGeo
import Foundation
import Glibc

/// Builds the feed a `--source` names: gpsd; standard input, pipes and devices read live; regular files
/// decoded up front and replayed at their recorded pace; simulated drives.
public enum LocationFeeds {
    /// How a simulated drive goes (the `simulate:` sources).
    public struct Simulation: Sendable, Hashable {
        /// The driving style (cruise speed, acceleration).
        public var style: DrivingStyle
        /// The stops along the route (`simulate:ROUTE`).
        public var stops: [SimulatedStop]
        /// Where the vehicle stands before its first leg (`simulate:plan`).
        public var start: GeoPoint?

        /// Settings for a simulated drive.
        public init(style: DrivingStyle, stops: [SimulatedStop] = [], start: GeoPoint? = nil) {
            self.style = style
            self.stops = stops
            self.start = start
        }
    }

    /// The feed for `spec`.
    /// - Throws: NOT_FOUND (`locationFileMissing`) for a file that does not exist; INVALID_ARGUMENT
    ///   (`unknownLocationSource`, `malformedLocationFile`) when a file cannot
    ///   be opened or read, or holds no usable location, or `simulate:plan` has no start.
    public static func feed(for spec: LocationSourceSpec, simulation: Simulation) throws -> any LocationFeed {
        switch spec {
        case .gpsd(let host, let port):
            return GPSDFeed(host: host, port: port)
        case .simulate(let reference):
            let points = try reference.points()
            guard let route = Route(points: points) else {
                throw FleetError(.malformedLocationFile, detail: "\(reference): the route is empty")
            }
            return SimulatedFeed(description: "simulated drive along \(reference) (\(Int(route.totalMeters)) m)",
                                 simulator: DriveSimulator(route: route, style: simulation.style, stops: simulation.stops))
        case .simulatePlan:
            guard let start = simulation.start else {
                throw FleetError(.unknownLocationSource, detail: "simulate:plan needs a place to start from", field: "source")
            }
            return PlannedDriveFeed(start: start, style: simulation.style)
        case .file(let format, let path):
            if path == "-" {
                if format == .gpx {
                    return try replay(text: readAll(descriptor: 0), format: format, name: "gpx from standard input")
                }
                return streamFeed(format: format, descriptor: 0, name: "\(format.rawValue) from standard input")
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                if errno == ENOENT {
                    throw FleetError(.locationFileMissing, detail: "\(format.rawValue):\(path): there is no file \(path)", field: "source")
                }
                throw FleetError(.unknownLocationSource, detail: "\(format.rawValue):\(path): \(String(cString: strerror(errno)))", field: "source")
            }
            if (info.st_mode & S_IFMT) == S_IFREG || format == .gpx {
                return try replay(text: RouteFile.readText(path: path), format: format, name: "\(format.rawValue) \(path)")
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else {
                throw FleetError(.unknownLocationSource, detail: "\(format.rawValue):\(path): \(String(cString: strerror(errno)))", field: "source")
            }
            return streamFeed(format: format, descriptor: descriptor, name: "\(format.rawValue) \(path)")
        }
    }

    /// A replay of a whole text in `format`.
    /// - Throws: INVALID_ARGUMENT (`malformedLocationFile`) when the text holds no usable location.
    public static func replay(text: String, format: LocationFileFormat, name: String) throws -> ReplayFeed {
        var statistics = DecoderStatistics()
        let samples: [LocationSample]
        switch format {
        case .gpx:
            samples = try GPXDocument(parsing: text, source: name).recordedPoints.map(\.sample)
            statistics.lines = samples.count
            statistics.samples = samples.count
        case .nmea:
            var decoder = NMEADecoder()
            samples = decoder.decode(text: text)
            statistics = decoder.statistics
        case .csv:
            var decoder = CSVLocationDecoder()
            samples = decoder.decode(text: text)
            statistics = decoder.statistics
            if let problem = decoder.headerProblem {
                throw FleetError(.malformedLocationFile, detail: "\(name): \(problem)")
            }
        case .jsonl:
            var decoder = JSONLinesLocationDecoder()
            samples = decoder.decode(text: text)
            statistics = decoder.statistics
        }
        guard !samples.isEmpty else {
            let why = statistics.lastProblem.map { "; \(statistics.bad) bad lines, the last: \($0)" } ?? ""
            throw FleetError(.malformedLocationFile, detail: "\(name) holds no usable location (\(statistics.lines) lines, \(statistics.noFix) without a fix\(why))")
        }
        return ReplayFeed(description: name, samples: samples, statistics: statistics)
    }

    private static func streamFeed(format: LocationFileFormat, descriptor: Int32, name: String) -> any LocationFeed {
        switch format {
        case .nmea: StreamFeed(description: name, fileDescriptor: descriptor, decoder: NMEADecoder())
        case .csv: StreamFeed(description: name, fileDescriptor: descriptor, decoder: CSVLocationDecoder())
        case .jsonl, .gpx: StreamFeed(description: name, fileDescriptor: descriptor, decoder: JSONLinesLocationDecoder())
        }
    }

    private static func readAll(descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { bytes += buffer[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
