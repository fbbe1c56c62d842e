import FleetGeo
import FleetModel
import Foundation
import RESTClient

/// Requests per second and p99 latency of `fleet-admin serve` over SQLite under wrk, against nginx
/// serving a fixed small body on the same machine in the same run (the machine's ceiling).
enum HTTPBenchmarks {
    static let duration = "5s"
    /// Each measured run follows a discarded run this long on the same server: a new process (page
    /// faults, allocator arenas, a new SQLite file's log growing) is slower than one that has been
    /// serving for a while, and a server is measured as it runs, not as it starts.
    static let warmUp = "2s"
    static let connections = "50"
    static let provider = "bench"

    static func run() -> [BenchmarkRow] {
        guard let wrk = which("wrk") else {
            return [BenchmarkRow(name: "HTTP benchmarks", skipped: "wrk is not installed (make bench installs it)")]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-http-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rows: [BenchmarkRow] = []

        var ceiling: Double?
        if let nginx = which("nginx") {
            if let (process, url) = startNginx(nginx, folder: folder) {
                _ = runWrk(wrk, url: url + "/", script: nil, folder: folder, duration: warmUp)
                if let result = runWrk(wrk, url: url + "/", script: nil, folder: folder) {
                    ceiling = result.rate
                    rows.append(BenchmarkRow(name: "nginx, fixed body (ceiling)", value: .perSecond(result.rate),
                                             comparison: "p99 \(result.p99); 100%"))
                }
                process.terminate()
                process.waitUntilExit()
            }
        }
        if ceiling == nil {
            rows.append(BenchmarkRow(name: "nginx, fixed body (ceiling)", skipped: "nginx is not installed (make bench installs it)"))
        }

        let server: BenchServer
        do {
            server = try preparedServer(folder: folder)
        } catch {
            return rows + [BenchmarkRow(name: "fleet-admin serve", failed: "\(error)")]
        }
        defer { server.stop() }
        let cases: [(name: String, path: String, script: String?, aim: Double?)] =
            aimedCalls.map { ($0.name, $0.path, $0.script, $0.aim) }
            + [("SearchVehicles, 100 vehicles in range", "/v1/providers/\(provider)/vehicles:search", searchScript, nil)]
        for c in cases {
            rows.append(row("fleet-admin serve: \(c.name)", wrk: wrk, url: server.url + c.path, script: c.script,
                            folder: folder, ceiling: ceiling, aim: c.aim))
        }
        // Where UpdateVehicle's time goes: the same load on stores that do less per write.
        for (name, store) in [("sqlite, not durable", "sqlite:\(folder)/fast.db?durable=false"), ("memory store", "memory")] {
            do {
                let other = try preparedServer(folder: folder, store: store)
                defer { other.stop() }
                rows.append(row("  UpdateVehicle, \(name) (for comparison)", wrk: wrk, url: other.url + "/", script: updateScript,
                                folder: folder, ceiling: ceiling, aim: nil))
            } catch {
                rows.append(BenchmarkRow(name: "  UpdateVehicle, \(name)", failed: "\(error)"))
            }
        }
        return rows + ownRouteRows(wrk: wrk, folder: folder)
    }

    /// `fleet-bench http-router`: only the rows of `ownRouteRows`.
    static func ownRoutes() -> [BenchmarkRow] {
        guard let wrk = which("wrk") else {
            return [BenchmarkRow(name: "HTTP benchmarks", skipped: "wrk is not installed (make bench installs it)")]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-http-router-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return ownRouteRows(wrk: wrk, folder: folder)
    }

    /// UpdateVehicle of vehicles with trips that send their own routes, on a server without a router and
    /// on one with `--router routino:` (which plans only for vehicles that send none), in alternating
    /// rounds of the same load: a router must not slow down the updates of drivers who navigate.
    static func ownRouteRows(wrk: String, folder: String, rounds: Int = 5) -> [BenchmarkRow] {
        let map = RouteBenchmarks.mapDirectory
        guard FileManager.default.fileExists(atPath: map + "/nodes.mem") else {
            return [BenchmarkRow(name: "UpdateVehicle with --router routino", skipped: "no map in \(map): run make map")]
        }
        do {
            let plain = try preparedServer(folder: folder, ownRoutes: true)
            defer { plain.stop() }
            let routed = try preparedServer(folder: folder, ownRoutes: true, extraArguments: ["--router", "routino:" + map])
            defer { routed.stop() }
            var rates: (plain: [Double], routed: [Double]) = ([], [])
            for server in [plain, routed] { _ = runWrk(wrk, url: server.url + "/", script: updateScript, folder: folder, duration: warmUp) }
            for _ in 0..<rounds {
                if let r = runWrk(wrk, url: plain.url + "/", script: updateScript, folder: folder, duration: "3s") { rates.plain.append(r.rate) }
                if let r = runWrk(wrk, url: routed.url + "/", script: updateScript, folder: folder, duration: "3s") { rates.routed.append(r.rate) }
            }
            guard !rates.plain.isEmpty, rates.plain.count == rates.routed.count else {
                return [BenchmarkRow(name: "UpdateVehicle with --router routino", failed: "wrk did not report")]
            }
            let ratios = zip(rates.routed, rates.plain).map { $0 / $1 }.sorted()
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            return [
                BenchmarkRow(name: "UpdateVehicle, vehicles with trips and their own routes, no router", value: .perSecond(median(rates.plain)),
                             comparison: "median of \(rounds) rounds of 3 s (baseline)"),
                BenchmarkRow(name: "  the same with --router routino:", value: .perSecond(median(rates.routed)),
                             comparison: String(format: "%.0f%% of the baseline (rounds %@); aim: not slower", ratios[ratios.count / 2] * 100,
                                                ratios.map { String(format: "%.0f%%", $0 * 100) }.joined(separator: ", ")),
                             ratio: ratios[ratios.count / 2], baseline: "no router"),
            ]
        } catch {
            return [BenchmarkRow(name: "UpdateVehicle with --router routino", failed: "\(error)")]
        }
    }

    /// `fleet-admin serve` over `store` (default: a new durable SQLite file), set up by `setUp`.
    /// With `ownRoutes`, each of v0…v99 also has a trip and a route of its driver's along the updates' path.
    static func preparedServer(folder: String, store: String? = nil, ownRoutes: Bool = false, extraArguments: [String] = []) throws -> BenchServer {
        let server = try BenchServer(folder: folder, store: store, extraArguments: extraArguments)
        do {
            let client = try RESTClient(baseURL: server.url)
            try setUp(client)
            if ownRoutes { try giveOwnRoutes(client) }
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// v0…v99 take the updates; s0…s99 stay where they are, all within the search's radius; trip t1
    /// is on v1.
    static func setUp(_ client: RESTClient) throws {
        for prefix in ["v", "s"] {
            for v in 0..<100 {
                _ = try client.createVehicle(CreateVehicleRequest(parent: "providers/\(provider)", vehicleId: "\(prefix)\(v)", vehicle: Vehicle(
                    vehicleState: .online, supportedTripTypes: [.exclusive],
                    lastLocation: VehicleLocation(location: LatLng(latitude: (prefix == "v" ? 53.5 : 52.5) + Double(v) * 1e-4, longitude: 13.4)),
                    maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
            }
        }
        _ = try client.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.51, longitude: 13.41)),
            dropoffPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.43)))))
    }

    /// A trip for each of v0…v99 and the driver's route north along longitude 13.4, where the updates go.
    static func giveOwnRoutes(_ client: RESTClient) throws {
        let route = Polyline.encode([GeoPoint(latitude: 53.49, longitude: 13.4), GeoPoint(latitude: 53.6, longitude: 13.4)])
        for v in 0..<100 {
            if v != 1 { _ = try client.createTrip(CreateTripRequest(parent: "providers/\(provider)", tripId: "r\(v)", trip: Trip(
                vehicleId: "v\(v)", tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 53.6, longitude: 13.4)),
                dropoffPoint: TerminalLocation(point: LatLng(latitude: 53.61, longitude: 13.4))))) }  // v1 has t1
            _ = try client.updateVehicle(UpdateVehicleRequest(name: "providers/\(provider)/vehicles/v\(v)",
                                                              vehicle: Vehicle(currentRouteSegment: route), updateMask: ["currentRouteSegment"]))
        }
    }

    /// The calls the issue sets an aim for, as shares of nginx's rate.
    static let aimedCalls: [(name: String, path: String, script: String?, aim: Double)] = [
        ("UpdateVehicle (location), durable sqlite", "/", updateScript, 0.30),
        ("GetTrip", "/v1/providers/\(provider)/trips/t1", nil, 0.50),
    ]

    /// Location updates of 100 vehicles, each request a new place. The thousand requests are written
    /// once, at start, and sent in turn: wrk shares the machine with the server, and formatting each
    /// request in Lua as it went doubled wrk's user CPU (its runs against nginx use no script).
    /// They are written in `init`, after wrk has set the Host header: written as the script loads,
    /// they had none, and the server answers an HTTP/1.1 request without Host with 400.
    static let updateScript = updates(ofVehicles: 0..<100)

    /// `updateScript` for some of v0…v99 only: several nodes each updating vehicles of their own, as
    /// behind a load balancer that sends each vehicle's updates to one node.
    static func updates(ofVehicles vehicles: Range<Int>) -> String {
        """
        requests = {}
        init = function(args)
          for counter = 1, 1000 do
            local body = '{"lastLocation":{"location":{"latitude":53.5' .. (counter % 1000) .. ',"longitude":13.4}}}'
            requests[counter] = wrk.format("PUT", "/v1/providers/\(provider)/vehicles/v" .. (\(vehicles.lowerBound) + counter % \(vehicles.count)) .. "?updateMask=lastLocation",
                                           {["Content-Type"] = "application/json"}, body)
          end
        end
        counter = 0
        request = function()
          counter = counter % 1000 + 1
          return requests[counter]
        end
        """
    }

    static let searchScript = """
        wrk.method = "POST"
        wrk.headers["Content-Type"] = "application/json"
        wrk.body = '{"pickupPoint":{"point":{"latitude":52.505,"longitude":13.4}},"pickupRadiusMeters":2000,"count":10,"minimumCapacity":1,"tripTypes":["EXCLUSIVE"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"PICKUP_POINT_ETA"}'
        """

    /// One wrk run as a table row: rate, p99 and the share of nginx's rate.
    static func row(_ name: String, wrk: String, url: String, script: String?, folder: String, ceiling: Double?, aim: Double?) -> BenchmarkRow {
        _ = runWrk(wrk, url: url, script: script, folder: folder, duration: warmUp)
        guard let result = runWrk(wrk, url: url, script: script, folder: folder) else {
            return BenchmarkRow(name: name, failed: "wrk did not report")
        }
        var comparison = "p99 \(result.p99)"
        if let ceiling {
            comparison += String(format: "; %.0f%% of nginx", result.rate / ceiling * 100)
            if let aim { comparison += String(format: " (aim >= %.0f%%)", aim * 100) }
        }
        if result.errors > 0 { comparison += "; \(result.errors) non-2xx" }
        return BenchmarkRow(name: name, value: .perSecond(result.rate), comparison: comparison,
                            ratio: ceiling.map { result.rate / $0 }, baseline: "nginx, fixed body")
    }

    /// `fleet-bench http-pairs`: `count` rounds of 3 s runs of nginx, UpdateVehicle (durable SQLite) and
    /// GetTrip, and the median of each call's ratios to nginx.
    ///
    /// Machines of one kind drift from minute to minute (other guests on the host take CPU time, shown
    /// per round as stolen time), so each call's run is compared with the mean of the nginx runs just
    /// before and just after it (the next round's, and one more at the end) rather than with one run
    /// before it, and the calls' order alternates from round to round, so that neither is always the
    /// one measured longest after nginx.
    static func pairs(count: Int = 9) -> [BenchmarkRow] {
        guard let wrk = which("wrk"), let nginx = which("nginx") else {
            return [BenchmarkRow(name: "HTTP rounds", skipped: "wrk and nginx are needed (make bench installs them)")]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-http-pairs-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let (process, nginxURL) = startNginx(nginx, folder: folder) else {
            return [BenchmarkRow(name: "HTTP rounds", failed: "nginx did not start")]
        }
        defer { process.terminate(); process.waitUntilExit() }
        let server: BenchServer
        do {
            server = try preparedServer(folder: folder)
        } catch {
            return [BenchmarkRow(name: "fleet-admin serve", failed: "\(error)")]
        }
        defer { server.stop() }
        let calls = aimedCalls
        _ = runWrk(wrk, url: nginxURL + "/", script: nil, folder: folder, duration: warmUp)
        for call in calls {
            _ = runWrk(wrk, url: server.url + call.path, script: call.script, folder: folder, duration: warmUp)
        }
        // rounds[r]: nginx's rate at the start of round r, and each call's rate in it (nil when wrk failed).
        var rounds: [(nginx: Double?, calls: [Double?], stolen: Double)] = []
        var failedRuns = [Int](repeating: 0, count: calls.count)
        for round in 0...count {
            let before = CPUTimes.now()
            let ceiling = runWrk(wrk, url: nginxURL + "/", script: nil, folder: folder, duration: "3s")?.rate
            guard round < count else {
                rounds.append((ceiling, [], 0))
                break
            }
            var rates = [Double?](repeating: nil, count: calls.count)
            let order = round % 2 == 0 ? Array(calls.indices) : calls.indices.reversed()
            for index in order {
                let result = runWrk(wrk, url: server.url + calls[index].path, script: calls[index].script, folder: folder, duration: "3s")
                // A run with error answers measures the errors, not the call: left out, and said so.
                if let result, result.errors > 0 { failedRuns[index] += 1 } else { rates[index] = result?.rate }
            }
            var stolen = 0.0
            if let before, let after = CPUTimes.now() { stolen = after.stolen(since: before) }
            rounds.append((ceiling, rates, stolen))
        }
        var rows: [BenchmarkRow] = []
        var ratios = [[Double]](repeating: [], count: calls.count)
        for round in 0..<count {
            guard let before = rounds[round].nginx, let after = rounds[round + 1].nginx else { continue }
            let ceiling = (before + after) / 2
            var cells: [String] = []
            for (index, call) in calls.enumerated() {
                guard let rate = rounds[round].calls[index] else { continue }
                ratios[index].append(rate / ceiling)
                cells.append(String(format: "%@ %.0f%% (%@)", call.name.split(separator: " ").first.map(String.init) ?? call.name,
                                    rate / ceiling * 100, StoreBenchmarks.rate(rate)))
            }
            cells.append(String(format: "%.1f%% stolen", rounds[round].stolen * 100))
            rows.append(BenchmarkRow(note: "round \(round + 1): against nginx \(StoreBenchmarks.rate(before)) → \(StoreBenchmarks.rate(after))",
                                     comparison: cells.joined(separator: "; ")))
        }
        for (index, call) in calls.enumerated() where failedRuns[index] > 0 {
            rows.append(BenchmarkRow(name: "\(call.name): runs with non-2xx answers", value: .count(failedRuns[index]), comparison: "left out of the median"))
        }
        for (index, call) in calls.enumerated() where !ratios[index].isEmpty {
            let sorted = ratios[index].sorted()
            rows.append(BenchmarkRow(name: "\(call.name) / nginx, median of \(sorted.count) rounds",
                                     value: .percent(sorted[sorted.count / 2] * 100),
                                     comparison: String(format: "range %.0f–%.0f%%; aim >= %.0f%%", sorted[0] * 100,
                                                        sorted[sorted.count - 1] * 100, call.aim * 100),
                                     ratio: sorted[sorted.count / 2], baseline: "nginx"))
        }
        return rows
    }

    struct WrkResult { var rate: Double; var p99: String; var errors: Int }

    static func runWrk(_ wrk: String, url: String, script: String?, folder: String, duration: String = duration,
                       connections: Int = Int(HTTPBenchmarks.connections) ?? 50, threads: Int = 2) -> WrkResult? {
        var arguments = ["-t\(threads)", "-c\(connections)", "-d\(duration)", "--latency"]
        if let script {
            let path = "\(folder)/script-\(UUID().uuidString).lua"
            _ = FileManager.default.createFile(atPath: path, contents: Data(script.utf8))
            arguments += ["-s", path]
        }
        guard let text = capture(wrk, arguments + [url]) else { return nil }
        var result = WrkResult(rate: 0, p99: "?", errors: 0)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), let value = fields.last.flatMap({ Double($0) }) { result.rate = value }
            if fields.first == "99%", fields.count >= 2 { result.p99 = String(fields[1]) }
            if line.contains("Non-2xx or 3xx responses:"), let value = fields.last.flatMap({ Int($0) }) { result.errors = value }
        }
        return result.rate > 0 ? result : nil
    }

    static func startNginx(_ nginx: String, folder: String) -> (Process, String)? {
        let port = 20000 + Int(getpid() % 20000)
        let config = """
        worker_processes 1;
        error_log \(folder)/nginx-error.log;
        pid \(folder)/nginx.pid;
        events { worker_connections 1024; }
        http {
          access_log off;
          server {
            listen 127.0.0.1:\(port);
            location / { default_type application/json; return 200 '{"status":"ok"}'; }
          }
        }
        """
        _ = FileManager.default.createFile(atPath: "\(folder)/nginx.conf", contents: Data(config.utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", folder, "-c", "\(folder)/nginx.conf", "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        Thread.sleep(forTimeInterval: 0.5)
        return process.isRunning ? (process, "http://127.0.0.1:\(port)") : nil
    }

    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders: [String] = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for folder in folders {
            let path = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func capture(_ tool: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(data: data, encoding: .utf8)
    }
}
