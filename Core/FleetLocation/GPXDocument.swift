import FleetErrors
import FleetGeo
import FleetModel

/// The points of a GPX 1.0 or 1.1 file: its routes (`rte`/`rtept`), tracks (`trk`/`trkseg`/`trkpt`,
/// segments joined) and waypoints (`wpt`), each point with what the file gives of elevation, time,
/// speed and course (GPX 1.0 `speed`/`course` and Garmin's TrackPointExtension are read).
public struct GPXDocument: Sendable, Hashable {
    /// One `trkpt`, `rtept` or `wpt`.
    public struct Point: Sendable, Hashable {
        /// The position.
        public var point: GeoPoint
        /// `<ele>`, metres.
        public var elevation: Double?
        /// `<time>`.
        public var time: Timestamp?
        /// `<speed>`, metres per second.
        public var speed: Double?
        /// `<course>`, degrees true.
        public var course: Double?
        /// `<hdop>`.
        public var hdop: Double?

        /// A point.
        public init(point: GeoPoint, elevation: Double? = nil, time: Timestamp? = nil, speed: Double? = nil,
                    course: Double? = nil, hdop: Double? = nil) {
            self.point = point
            self.elevation = elevation
            self.time = time
            self.speed = speed
            self.course = course
            self.hdop = hdop
        }

        /// The point as a location sample.
        public var sample: LocationSample {
            LocationSample(point: point, time: time, altitude: elevation, speed: speed, heading: course, sensor: .gps)
        }
    }

    /// The routes, in file order, each a list of `rtept`.
    public var routes: [[Point]] = []
    /// The tracks, in file order, each the `trkpt` of all its segments.
    public var tracks: [[Point]] = []
    /// The waypoints (`wpt`), in file order.
    public var waypoints: [Point] = []

    /// An empty document.
    public init() {}

    /// Reads GPX text.
    /// - Throws: INVALID_ARGUMENT (`malformedLocationFile`) when the text is not XML, the root is not
    ///   `<gpx>`, or a point has a missing or out-of-range `lat`/`lon` or an unreadable child.
    public init(parsing text: String, source: String = "GPX") throws {
        let events: [XMLScanner.Event]
        do {
            events = try XMLScanner.events(of: text)
        } catch {
            throw FleetError(.malformedLocationFile, detail: "\(source): not well-formed XML: \(error)")
        }
        guard case .start(let root, _, _)? = events.first(where: { if case .start = $0 { true } else { false } }), root == "gpx" else {
            throw FleetError(.malformedLocationFile, detail: "\(source): the root element is not <gpx>")
        }
        var stack: [String] = []
        var current: Point?
        var currentRoute: [Point]?
        var currentTrack: [Point]?
        var text = ""
        for event in events {
            switch event {
            case .start(let name, let attributes, let selfClosing):
                text = ""
                if ["trkpt", "rtept", "wpt"].contains(name) {
                    guard let latitudeText = attributes["lat"], let longitudeText = attributes["lon"],
                          let latitude = Double(latitudeText.trimmingSpaces), let longitude = Double(longitudeText.trimmingSpaces),
                          (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                        throw FleetError(.malformedLocationFile,
                                         detail: "\(source): <\(name)> number \(pointCount(routes, tracks, waypoints, currentRoute, currentTrack) + 1) has a missing or out-of-range lat/lon")
                    }
                    current = Point(point: GeoPoint(latitude: latitude, longitude: longitude))
                } else if name == "rte" {
                    currentRoute = []
                } else if name == "trk" {
                    currentTrack = []
                }
                if selfClosing {
                    try Self.close(name, point: &current, route: &currentRoute, track: &currentTrack, into: &self, text: "", source: source)
                } else {
                    stack.append(name)
                }
            case .text(let value):
                text += value
            case .end(let name):
                guard stack.last == name else {
                    throw FleetError(.malformedLocationFile, detail: "\(source): </\(name)> closes <\(stack.last ?? "nothing")>")
                }
                stack.removeLast()
                try Self.close(name, point: &current, route: &currentRoute, track: &currentTrack, into: &self, text: text, source: source)
                text = ""
            }
        }
        guard stack.isEmpty else {
            throw FleetError(.malformedLocationFile, detail: "\(source): <\(stack.last!)> is never closed")
        }
    }

    private static func close(_ name: String, point: inout Point?, route: inout [Point]?, track: inout [Point]?,
                              into document: inout GPXDocument, text: String, source: String) throws {
        let value = text.trimmingSpaces
        func number() throws -> Double {
            guard let number = Double(value), number.isFinite else {
                throw FleetError(.malformedLocationFile, detail: "\(source): <\(name)> holds '\(value)', not a number")
            }
            return number
        }
        switch name {
        case "ele" where point != nil: point?.elevation = try number()
        case "speed" where point != nil: point?.speed = try number()
        case "course" where point != nil: point?.course = try number()
        case "hdop" where point != nil: point?.hdop = try number()
        case "time" where point != nil:
            guard let time = try? Timestamp(rfc3339: value) else {
                throw FleetError(.malformedLocationFile, detail: "\(source): <time> holds '\(value)', not an RFC 3339 time")
            }
            point?.time = time
        case "trkpt":
            if let finished = point { track?.append(finished) }
            point = nil
        case "rtept":
            if let finished = point { route?.append(finished) }
            point = nil
        case "wpt":
            if let finished = point { document.waypoints.append(finished) }
            point = nil
        case "rte":
            if let finished = route { document.routes.append(finished) }
            route = nil
        case "trk":
            if let finished = track { document.tracks.append(finished) }
            track = nil
        default:
            break
        }
    }

    private func pointCount(_ routes: [[Point]], _ tracks: [[Point]], _ waypoints: [Point], _ route: [Point]?, _ track: [Point]?) -> Int {
        routes.reduce(0) { $0 + $1.count } + tracks.reduce(0) { $0 + $1.count } + waypoints.count + (route?.count ?? 0) + (track?.count ?? 0)
    }

    /// The points a location source replays: the tracks (recorded positions), else the routes, else the
    /// waypoints.
    public var recordedPoints: [Point] {
        if !tracks.joined().isEmpty { return Array(tracks.joined()) }
        if !routes.joined().isEmpty { return Array(routes.joined()) }
        return waypoints
    }

    /// The points of a route to follow: the first route, else the tracks joined, else the waypoints.
    public var routePoints: [GeoPoint] {
        if let route = routes.first(where: { !$0.isEmpty }) { return route.map(\.point) }
        if !tracks.joined().isEmpty { return tracks.joined().map(\.point) }
        return waypoints.map(\.point)
    }
}
