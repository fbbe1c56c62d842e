import FleetErrors
import FleetGeo
import FleetTestSupport
import Foundation
import Testing

/// `fleet-admin route` and `fleet-admin map import`, run as the real binary.
@Suite(.enabled(if: HelsinkiMap.directory != nil, "\(HelsinkiMap.missing)"))
struct RouteCommandTests {
    let admin: BinaryRunner
    let map = HelsinkiMap.directory!

    init() throws {
        admin = try BinaryRunner(product: "fleet-admin")
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    @Test func printsARoadRouteAsTextAndJSON() throws {
        let arguments = ["route", "--router", "routino:" + map, "--from", "60.16675,24.94956", "--to", "60.17493,24.94008"]
        let text = try admin.run(arguments)
        #expect(text.status == 0, "\(text)")
        let oracle = try #require(try RoutinoOracle.route(directory: map, from: GeoPoint(latitude: 60.16675, longitude: 24.94956),
                                                          to: GeoPoint(latitude: 60.17493, longitude: 24.94008)))
        #expect(text.output.contains("Distance:  \(Int(oracle.meters.rounded())) m"), "\(text.output)")
        #expect(text.output.contains("Kind:      road route"))
        #expect(text.output.contains("© OpenStreetMap contributors, ODbL"))
        let result = try admin.run(arguments + ["--json"])
        #expect(result.status == 0, "\(result)")
        let object = try json(result.output)
        #expect(abs((object["distanceMeters"] as? Double ?? 0) - oracle.meters) <= 1)
        #expect(abs((object["durationSeconds"] as? Double ?? 0) - oracle.seconds) <= 3 * Double(oracle.sections) + 1)
        #expect(object["isEstimate"] as? Bool == false)
        let points = try Polyline.decode(try #require(object["encodedPolyline"] as? String))
        #expect(points.count > 5)
        #expect(Geodesy.distance(points[0], oracle.first) < 2)
        #expect(text.output.contains(object["encodedPolyline"] as? String ?? "-"))
    }

    @Test func straightIsTheDefaultAndSaysItIsAnEstimate() throws {
        let result = try admin.run(["route", "--from", "60.1719,24.9414", "--to", "60.1695,24.9525", "--via", "60.1700,24.9450", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try json(result.output)
        #expect(object["isEstimate"] as? Bool == true)
        #expect(object["router"] as? String == "straight")
        #expect((object["waypoints"] as? [Any])?.count == 3)
        #expect(object["attribution"] == nil)
        let viaEnvironment = try admin.run(["route", "--from", "60.16675,24.94956", "--to", "60.17493,24.94008", "--json"],
                                           environment: BinaryRunner.quietEnvironment.merging(["FLEET_ROUTER": "routino:" + map]) { $1 })
        #expect(try json(viaEnvironment.output)["isEstimate"] as? Bool == false, "\(viaEnvironment)")
    }

    @Test func badInputGetsTheCataloguesErrorAndExitCode() throws {
        let off = try admin.run(["route", "--router", "routino:" + map, "--from", "60.30,24.94", "--to", "60.17493,24.94008", "--no-color"])
        #expect(off.status == ExitCode(.invalidArgument).rawValue, "\(off)")
        #expect(off.error.contains("POINT_OFF_MAP") && off.error.contains("Field: from"), "\(off.error)")
        let unknown = try admin.run(["route", "--router", "osrm://x", "--from", "60.1,24.9", "--to", "60.2,24.9", "--no-color"])
        #expect(unknown.status == 13, "\(unknown)")
        // The message lists the schemes (wrapped to the terminal's width, so not on one line).
        #expect(unknown.error.contains("UNKNOWN_SCHEME") && unknown.error.contains("straight,") && unknown.error.contains("routino:DIR"),
                "\(unknown.error)")
        let noMap = try admin.run(["route", "--router", "routino:/nonexistent", "--from", "60.1,24.9", "--to", "60.2,24.9"])
        #expect(noMap.status == ExitCode(.failedPrecondition).rawValue, "\(noMap)")
        let usage = try admin.run(["route", "--from", "60.1,24.9"])
        #expect(usage.status == 2, "\(usage)")
        let badPoint = try admin.run(["route", "--from", "north", "--to", "60.2,24.9"])
        #expect(badPoint.status == 2, "\(badPoint)")
    }

    @Test func mapImportBuildsADatabaseThatRoutesTheSame() throws {
        let folder = try Products.temporaryDirectory("map-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let into = folder.appendingPathComponent("helsinki").path
        let imported = try admin.run(["map", "import", map + "/Helsinki.osm.pbf", "--into", into, "--json"])
        #expect(imported.status == 0, "\(imported)")
        #expect(try json(imported.output)["router"] as? String == "routino:" + into)
        let route = ["route", "--from", "60.16675,24.94956", "--to", "60.17493,24.94008", "--json"]
        let mine = try admin.run(route + ["--router", "routino:" + into])
        let sample = try admin.run(route + ["--router", "routino:" + map])
        #expect(mine.status == 0, "\(mine)")
        #expect(try json(mine.output)["encodedPolyline"] as? String == (try json(sample.output)["encodedPolyline"] as? String))

        let notOSM = folder.appendingPathComponent("notes.osm.pbf")
        try Data("not a map".utf8).write(to: notOSM)
        let bad = try admin.run(["map", "import", notOSM.path, "--into", folder.appendingPathComponent("bad").path, "--no-color"])
        #expect(bad.status == 13, "\(bad)")
        #expect(bad.error.contains("MAP_IMPORT_FAILED"), "\(bad.error)")
        let missing = try admin.run(["map", "import", folder.appendingPathComponent("absent.osm.pbf").path, "--into", into])
        #expect(missing.status == 13, "\(missing)")
    }
}
