import FleetModel
import Foundation
import Glibc
import RESTClient

/// The rider's map page in a real headless Chromium (driven over WebDriver by chromedriver): the
/// time from sending UpdateVehicle to the page's car marker taking the new position, with 10 pages
/// open in one browser, each its own window following the same trip; and the page's weight and
/// first render on loopback. The marker counts as moved when the page sets its `data-lat` (the
/// glide along the route then starts), as a MutationObserver in the page records with the wall
/// clock this process also reads.
enum MapBenchmarks {
    static let provider = "bench-map"
    static let pages = 10
    static let updates = 60

    static func run() -> [BenchmarkRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-map-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server: BenchServer
        do { server = try BenchServer(folder: folder, extraArguments: ["--provider", provider]) } catch {
            return [BenchmarkRow(name: "fleet-admin serve", failed: "\(error)")]
        }
        defer { server.stop() }
        do {
            let driver = try WebDriver()
            defer { driver.quit() }
            return try measure(server: server, driver: driver)
        } catch {
            return [BenchmarkRow(name: "map page", failed: "\(error)")]
        }
    }

    static func location(step: Int) -> LatLng { LatLng(latitude: 60.165 + Double(step) * 1e-5, longitude: 24.938) }

    static func measure(server: BenchServer, driver: WebDriver) throws -> [BenchmarkRow] {
        let client = try RESTClient(baseURL: server.url)
        let parent = "providers/\(provider)"
        _ = try client.createVehicle(CreateVehicleRequest(parent: parent, vehicleId: "car", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive], lastLocation: VehicleLocation(location: location(step: 0)),
            maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        _ = try client.createTrip(CreateTripRequest(parent: parent, tripId: "ride", trip: Trip(
            vehicleId: "car", tripType: .exclusive,
            pickupPoint: TerminalLocation(point: LatLng(latitude: 60.170, longitude: 24.942)),
            dropoffPoint: TerminalLocation(point: LatLng(latitude: 60.175, longitude: 24.950)))))
        let page = "\(server.url)/map/trips/ride"

        // Page weight: the page and everything it loads (Leaflet included), as a browser gets them.
        var weight = 0
        for path in ["/map/trips/ride", "/map/assets/map.css", "/map/assets/map-common.js", "/map/assets/rider.js",
                     "/map/leaflet/leaflet.min.js", "/map/leaflet/leaflet.css"] {
            weight += try WebDriver.curl("GET", server.url + path, headers: ["Accept-Encoding: gzip"]).bytes
        }

        // Open the pages, one window each, and watch their markers.
        var windows: [String] = []
        var firstRenders: [Double] = []
        for i in 0..<pages {
            if i > 0 {
                let handle = try driver.command("POST", "/window/new", ["type": "window"]) as? [String: Any]
                guard let id = handle?["handle"] as? String else { throw WebDriver.Failure(description: "no new window") }
                try driver.command("POST", "/window", ["handle": id])
            }
            windows.append(try driver.command("GET", "/window") as? String ?? "")
            FileHandle.standardError.write(Data("map bench: opening page \(i + 1)\n".utf8))
            // Chromium keeps at most 6 HTTP/1.1 connections per host and each page holds one for its
            // stream: a 7th page of one host would wait for a free connection. Half the pages name
            // the server "localhost".
            try driver.command("POST", "/url", ["url": i % 2 == 0 ? page : page.replacingOccurrences(of: "127.0.0.1", with: "localhost")])
            try driver.waitFor("return !!document.querySelector('[data-field=\"vehicle\"]') && !!document.body.dataset.firstRenderMs;")
            if let first = (try driver.run("return Number(document.body.dataset.firstRenderMs);") as? NSNumber)?.doubleValue {
                firstRenders.append(first)
            }
            try driver.run("""
                window.benchMoves = [];
                const v = document.querySelector('[data-field="vehicle"]');
                new MutationObserver(() => window.benchMoves.push([Number(v.dataset.lat), Date.now()]))
                  .observe(v, { attributes: true, attributeFilter: ['data-lat'] });
                return true;
                """)
        }

        // Each update moves the car a metre; the time it was sent, by step.
        var sent: [Int: Double] = [:]
        for step in 1...updates {
            let start = Date().timeIntervalSince1970 * 1000
            _ = try client.updateVehicle(UpdateVehicleRequest(
                name: "\(parent)/vehicles/car", vehicle: Vehicle(lastLocation: VehicleLocation(location: location(step: step))),
                updateMask: FieldMask(["lastLocation"])))
            sent[step] = start
            usleep(250_000)
        }
        usleep(1_000_000)

        var latencies: [Double] = []
        var missing = 0
        for window in windows {
            try driver.command("POST", "/window", ["handle": window])
            let moves = try driver.run("return window.benchMoves;") as? [[Any]] ?? []
            var seen = Set<Int>()
            for move in moves {
                guard move.count == 2, let lat = (move[0] as? NSNumber)?.doubleValue, let at = (move[1] as? NSNumber)?.doubleValue else { continue }
                let step = Int(((lat - 60.165) / 1e-5).rounded())
                guard let start = sent[step], seen.insert(step).inserted else { continue }
                latencies.append(at - start)
            }
            missing += updates - seen.count
        }
        latencies.sort()
        guard !latencies.isEmpty else { throw WebDriver.Failure(description: "no marker moved") }
        let p50 = WatchBenchmarks.percentile(latencies, 0.50), p99 = WatchBenchmarks.percentile(latencies, 0.99)
        firstRenders.sort()
        return [
            BenchmarkRow(name: "map: update → marker moved, \(pages) pages, p50", value: .milliseconds(p50, decimals: 0),
                         comparison: "\(latencies.count) moves\(missing > 0 ? ", \(missing) coalesced" : "")"),
            BenchmarkRow(name: "map: update → marker moved, \(pages) pages, p99", value: .milliseconds(p99, decimals: 0), comparison: "aim <= 250 ms"),
            BenchmarkRow(name: "map: rider's page weight (Leaflet incl., gzip where shipped)", value: .kibibytes(weight / 1024), comparison: ""),
            BenchmarkRow(name: "map: first render (navigation → trip shown), median", value: .milliseconds(firstRenders[firstRenders.count / 2], decimals: 0),
                         comparison: "loopback, headless"),
        ]
    }
}

/// A small WebDriver client over curl, for the map benchmark: chromedriver on a free port, one
/// headless Chromium session; `quit` ends both (chromedriver ignores SIGTERM: it is told to shut down).
final class WebDriver {
    let driver = Process()
    let base: String
    var session = ""

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        let port = Int.random(in: 20_000..<60_000)
        // A session of its own: the browser is killed with it as a group, even when chromedriver is stuck.
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        driver.arguments = ["/usr/bin/chromedriver", "--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = "http://127.0.0.1:\(port)"
        for _ in 0..<100 where (try? Self.curl("GET", base + "/status", timeout: 2))?.status != 200 { usleep(100_000) }
        var args = ["--headless=new", "--disable-gpu", "--window-size=412,860", "--disable-dev-shm-usage",
                    "--disable-background-timer-throttling", "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"]
        if getuid() == 0 { args.append("--no-sandbox") }
        let answer = try Self.curl("POST", base + "/session", json: ["capabilities": ["alwaysMatch": ["goog:chromeOptions": ["args": args]]]], timeout: 60)
        guard let value = (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])?["value"] as? [String: Any],
              let id = value["sessionId"] as? String else {
            kill(-driver.processIdentifier, SIGKILL)
            driver.waitUntilExit()
            throw Failure(description: "no browser session: \(answer.body.prefix(300))")
        }
        session = id
    }

    func quit() {
        guard driver.isRunning else { return }
        _ = try? Self.curl("DELETE", "\(base)/session/\(session)", timeout: 10)
        _ = try? Self.curl("GET", base + "/shutdown", timeout: 5)
        for _ in 0..<50 where driver.isRunning { usleep(100_000) }
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
        kill(-driver.processIdentifier, SIGKILL)  // whatever is left of the browser
    }

    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        let answer = try Self.curl(method, "\(base)/session/\(session)\(path)", json: body ?? (method == "POST" ? [:] : nil), timeout: 60)
        guard answer.status == 200 else { throw Failure(description: "WebDriver \(method) \(path): \(answer.status) \(answer.body.prefix(300))") }
        return (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])?["value"]
    }

    @discardableResult
    func run(_ script: String) throws -> Any? { try command("POST", "/execute/sync", ["script": script, "args": []]) }

    func waitFor(_ script: String, timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try run(script) as? Bool == true { return }
            usleep(50_000)
        }
        throw Failure(description: "timed out: \(script)")
    }

    static func curl(_ method: String, _ url: String, json: Any? = nil, headers: [String] = [], timeout: Double = 20) throws -> (status: Int, body: String, bytes: Int) {
        var arguments = ["-s", "--max-time", String(timeout), "-X", method, "-w", "\n%{http_code}"] + headers.flatMap { ["-H", $0] }
        if let json {
            arguments += ["-H", "Content-Type: application/json", "--data-binary",
                          String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)]
        }
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = Array(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        // The body, then a new line and the status (curl's -w).
        guard let newline = data.lastIndex(of: UInt8(ascii: "\n")),
              let status = Int(String(decoding: data[(newline + 1)...], as: UTF8.self)) else {
            throw Failure(description: "curl \(url): no answer")
        }
        return (status, String(decoding: data[..<newline], as: UTF8.self), newline)
    }
}
