import FleetTestSupport
import Foundation
import Testing

/// What the server does around the pages, without a browser: the files it serves and refuses, the
/// vehicles watch's refusals, bad map flags, and a token kept out of the access log.
@Suite(.serialized) struct MapServerTests {
    @Test func servesThePagesFilesAndNothingOutsideLeaflet() throws {
        let fleet = try MapFixture()
        let url = fleet.server.url
        let leaflet = try Curl.call("GET", "\(url)/map/leaflet/leaflet.js")
        #expect(leaflet.status == 200 && leaflet.body.contains("Leaflet"))
        #expect(try Curl.call("GET", "\(url)/map/leaflet/images/marker-icon.png").status == 200)
        for path in ["/map/leaflet/%2E%2E/%2E%2E/%2E%2E/etc/passwd", "/map/leaflet/..%2F..%2Fetc%2Fpasswd", "/map/leaflet/.hidden",
                     "/map/leaflet/images/x/y.png", "/map/assets/nothing.js", "/map/elsewhere"] {
            let answer = try Curl.call("GET", url + path)
            #expect(answer.status == 404, "\(path): \(answer.status)")
            #expect(!answer.body.contains("root:"), "\(path)")
            #expect(answer.body.contains("data-field=\"error\""), "\(path): a page with the error in words")
        }
        let roads = try Curl.call("GET", "\(url)/map/roads.geojson")
        #expect(roads.status == 200 && roads.body.hasPrefix(#"{"type":"FeatureCollection""#))
        let page = try Curl.call("GET", "\(url)/map/trips/ride-1")
        #expect(page.status == 200)
        #expect(page.body.contains(#"data-field="tripStatus""#) && page.body.contains(#"data-field="remainingDistance""#))
        #expect(try Curl.call("POST", "\(url)/map").status == 405)
        // Another provider than the server's is refused as REST refuses it.
        let other = try Curl.call("GET", "\(url)/map/trips/ride-1?provider=someone-else")
        #expect(other.status == 200, "the server's --provider wins; ?provider= is for servers of every provider")
    }

    @Test func theVehiclesWatchIsForServersAndFleetReaders() throws {
        let fleet = try MapFixture(jwt: true)
        let tokens = try #require(fleet.tokens)
        try fleet.createCarAndRide()
        let watch = "\(fleet.base)/vehicles:watch"
        let consumer = try tokens.mint(role: "consumer", ["--trip", "ride-1"])
        let driver = try tokens.mint(role: "driver", ["--vehicle", "car-1"])
        #expect(try Curl.call("GET", watch).status == 403)
        #expect(try Curl.call("GET", watch, headers: ["Authorization": "Bearer \(consumer)"]).status == 403)
        #expect(try Curl.call("GET", watch, headers: ["Authorization": "Bearer \(driver)"]).status == 403)
        let reader = try tokens.mint(role: "fleet-reader")
        let bad = try Curl.call("GET", watch + "?foo=1", headers: ["Authorization": "Bearer \(reader)"])
        #expect(bad.status == 400 && bad.body.contains("Unknown name \\\"foo\\\""), "\(bad.body)")
        #expect(try Curl.call("PUT", watch, headers: ["Authorization": "Bearer \(reader)"]).status == 405)
        // The stream itself: the fleet, then synced (curl stops after 2 s of it).
        let stream = try Curl.call("GET", watch, headers: ["Authorization": "Bearer \(reader)"], timeout: 2, allowTimeout: true)
        #expect(stream.body.contains("event: vehicle\ndata: {\"name\":\"providers/map-test/vehicles/car-1\""), "\(stream.body)")
        #expect(stream.body.contains("event: synced\ndata: {\"vehicleIds\":[\"car-1\"]}"), "\(stream.body)")
    }

    @Test func badMapFlagsStopTheServerWithTheFlagNamed() throws {
        let folder = try Products.temporaryDirectory("map-flags")
        defer { try? FileManager.default.removeItem(at: folder) }
        let notJSON = folder.appendingPathComponent("roads.txt")
        try "highway".write(to: notJSON, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--leaflet-dir", folder.path], "--leaflet-dir"),
            (["--tiles", "https://tiles.example.org/tile.png"], "--tiles"),
            (["--map-roads", folder.appendingPathComponent("missing.geojson").path], "--map-roads"),
            (["--map-roads", notJSON.path], "--map-roads"),
        ]
        for (arguments, flag) in cases {
            let run = try BinaryRunner(product: "fleet-admin").run(["serve", "--listen", "127.0.0.1:0", "--store", "memory"] + arguments)
            #expect(run.status == 13, "\(arguments): exit \(run.status) (10 + INVALID_ARGUMENT)")
            #expect(run.error.contains(flag) && run.error.contains("INVALID_ARGUMENT"), "\(arguments): \(run.error)")
        }
        let usage = try BinaryRunner(product: "fleet-admin").run(["serve", "--listen", "127.0.0.1:0", "--store", "memory", "--stale-after", "0"])
        #expect(usage.status == 2 && usage.error.contains("--stale-after"), "\(usage)")
    }

    @Test func thePageTokenStaysOutOfTheAccessLog() throws {
        let folder = try Products.temporaryDirectory("map-log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokens = try MintedTokens(folder: folder, provider: nil)
        // A server with its access log on (ServerProcess turns it off), writing it to a file.
        let log = folder.appendingPathComponent("access.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Process()
        server.executableURL = try Products.locate("fleet-admin")
        server.arguments = ["serve", "--listen", "127.0.0.1:0", "--store", "memory", "--provider", "p"] + tokens.serverArguments
        let output = Pipe()
        server.standardOutput = output
        server.standardError = try FileHandle(forWritingTo: log)
        try server.run()
        defer { if server.isRunning { server.terminate() }; server.waitUntilExit() }
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { line.append(byte) }
        let url = try #require(String(decoding: line, as: UTF8.self).split(separator: " ").first { $0.hasPrefix("http://") })
        let token = try tokens.mint(role: "consumer", ["--trip", "t1"])
        #expect(try Curl.call("GET", "\(url)/map/trips/t1?token=\(token)").status == 200)
        server.terminate()
        server.waitUntilExit()
        let logged = try String(contentsOf: log, encoding: .utf8)
        #expect(logged.contains("\"GET /map/trips/t1\" 200"), "\(logged)")
        #expect(!logged.contains(String(token.suffix(20))))
    }
}
