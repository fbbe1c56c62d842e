import FleetModel
import Foundation
import RESTClient

/// Requests per second and p99 latency of `fleet-admin serve` over SQLite under wrk, against nginx
/// serving a fixed small body on the same machine in the same run (the machine's ceiling).
enum HTTPBenchmarks {
    static let duration = "5s"
    static let connections = "50"
    static let provider = "bench"

    static func run() -> [BenchmarkRow] {
        guard let wrk = which("wrk") else {
            return [BenchmarkRow(name: "HTTP benchmarks", value: "skipped", comparison: "wrk is not installed (make bench installs it)")]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-http-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rows: [BenchmarkRow] = []

        var ceiling: Double?
        if let nginx = which("nginx") ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : nil) {
            if let (process, url) = startNginx(nginx, folder: folder) {
                if let result = runWrk(wrk, url: url + "/", script: nil, folder: folder) {
                    ceiling = result.rate
                    rows.append(BenchmarkRow(name: "nginx, fixed body (ceiling)", value: StoreBenchmarks.rate(result.rate),
                                             comparison: "p99 \(result.p99); 100%"))
                }
                process.terminate()
                process.waitUntilExit()
            }
        }
        if ceiling == nil {
            rows.append(BenchmarkRow(name: "nginx, fixed body (ceiling)", value: "skipped", comparison: "nginx is not installed (make bench installs it)"))
        }

        let server: BenchServer
        do { server = try BenchServer(folder: folder) } catch {
            return rows + [BenchmarkRow(name: "fleet-admin serve", value: "failed", comparison: "\(error)")]
        }
        defer { server.stop() }
        let url = server.url
        do {
            let client = try RESTClient(baseURL: url)
            // v0…v99 take the updates; s0…s99 stay where they are, all within the search's radius.
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
        } catch {
            return rows + [BenchmarkRow(name: "fleet-admin serve setup", value: "failed", comparison: "\(error)")]
        }
        let update = """
        counter = 0
        request = function()
          counter = counter + 1
          local body = '{"lastLocation":{"location":{"latitude":53.5' .. (counter % 1000) .. ',"longitude":13.4}}}'
          return wrk.format("PUT", "/v1/providers/\(provider)/vehicles/v" .. (counter % 100) .. "?updateMask=lastLocation",
                            {["Content-Type"] = "application/json"}, body)
        end
        """
        let search = """
        wrk.method = "POST"
        wrk.headers["Content-Type"] = "application/json"
        wrk.body = '{"pickupPoint":{"point":{"latitude":52.505,"longitude":13.4}},"pickupRadiusMeters":2000,"count":10,"minimumCapacity":1,"tripTypes":["EXCLUSIVE"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"PICKUP_POINT_ETA"}'
        """
        let cases: [(name: String, path: String, script: String?, aim: Double?)] = [
            ("UpdateVehicle (location), durable sqlite", "/", update, 0.30),
            ("GetTrip", "/v1/providers/\(provider)/trips/t1", nil, 0.50),
            ("SearchVehicles, 100 vehicles in range", "/v1/providers/\(provider)/vehicles:search", search, nil),
        ]
        for c in cases {
            guard let result = runWrk(wrk, url: url + c.path, script: c.script, folder: folder) else {
                rows.append(BenchmarkRow(name: "fleet-admin serve: \(c.name)", value: "failed", comparison: "wrk did not report"))
                continue
            }
            var comparison = "p99 \(result.p99)"
            if let ceiling {
                comparison += String(format: "; %.0f%% of nginx", result.rate / ceiling * 100)
                if let aim = c.aim { comparison += String(format: " (aim >= %.0f%%)", aim * 100) }
            }
            if result.errors > 0 { comparison += "; \(result.errors) non-2xx" }
            rows.append(BenchmarkRow(name: "fleet-admin serve: \(c.name)", value: StoreBenchmarks.rate(result.rate), comparison: comparison))
        }
        return rows
    }

    struct WrkResult { var rate: Double; var p99: String; var errors: Int }

    static func runWrk(_ wrk: String, url: String, script: String?, folder: String) -> WrkResult? {
        var arguments = ["-t2", "-c\(connections)", "-d\(duration)", "--latency"]
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
