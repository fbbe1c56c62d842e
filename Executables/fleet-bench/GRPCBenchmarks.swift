import FleetModel
import Foundation
import HTTPClient

/// GetTrip and UpdateVehicle over gRPC beside the same calls over REST, on one server in the same run,
/// under the same load generator: h2load (Debian nghttp2-client), HTTP/2 with prepared gRPC frames
/// for gRPC and HTTP/1.1 (`--h1`) for REST, with the same number of calls in flight (64). Rate and
/// p99 (from h2load's per-request log); every gRPC answer's status is checked on `/metrics`.
///
/// On a shared 2-core machine one run of each transport moved the ratio of their rates by ±10%, so
/// each call runs in alternated rounds (REST then gRPC, then gRPC then REST, …) after a warm-up, and
/// the ratio is the median of the rounds' ratios. Beside the rates each round reads what each side
/// spent per call: the server's CPU (`/proc/PID/stat`) and the load generator's (h2load's rusage),
/// since h2load runs on the same cores and a client that pays more per call for one transport leaves
/// the server less of the machine.
enum GRPCBenchmarks {
    /// Rounds of each transport per call, and their length in seconds.
    static let rounds = 5
    static let roundSeconds = [3, 2]
    static let warmUpSeconds = 2
    /// Calls in flight in every row, REST and gRPC alike.
    static let callsInFlight = 64

    struct Load {
        var rate: Double
        var p99Milliseconds: Double
        var done: Int
        /// Answers with another HTTP status than 200 (REST's errors; gRPC's are counted on /metrics).
        var notOK: Int
        /// CPU seconds the server and the load generator (every h2load of the round) spent in it.
        var serverCPU: Double
        var clientCPU: Double
        /// The share of the machine's CPU time that was idle during the round (`/proc/stat`), in %:
        /// what neither the server, the load generator nor anything else on the machine used.
        var idlePercent: Double

        var answered: Int { done + notOK }
        /// Microseconds of CPU per answered call.
        var serverMicros: Double { serverCPU / Double(max(1, answered)) * 1e6 }
        var clientMicros: Double { clientCPU / Double(max(1, answered)) * 1e6 }
    }

    static func run() -> [BenchmarkRow] {
        guard let h2load = HTTPBenchmarks.which("h2load") else {
            return [BenchmarkRow(name: "gRPC benchmarks", skipped: "h2load is not installed (make setup installs nghttp2-client)")]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-grpc-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server: BenchServer
        do {
            server = try HTTPBenchmarks.preparedServer(folder: folder, extraArguments: ["--grpc-listen", "127.0.0.1:0"])
        } catch {
            return [BenchmarkRow(name: "fleet-admin serve --grpc-listen", failed: "\(error)")]
        }
        defer { server.stop() }
        guard let target = server.grpcTarget else {
            return [BenchmarkRow(name: "fleet-admin serve --grpc-listen", failed: "no grpc:// address printed")]
        }
        let provider = "providers/\(HTTPBenchmarks.provider)"
        let trip = "\(provider)/trips/t1"
        let location = Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: 53.5001, longitude: 13.4)))
        // Location updates: each of the 64 calls in flight has a vehicle of its own (one h2load per
        // vehicle), as each car of a fleet reports only its own place. Several calls in flight on one
        // vehicle conflict with each other (409, ABORTED) and measure that contention, not the transport.
        let updated = (0..<callsInFlight).map { "\(provider)/vehicles/v\($0)" }

        var rows: [BenchmarkRow] = []
        let calls: [(name: String, rest: [Request], grpc: [Request])] = [
            ("GetTrip", [Request(verb: "GET", path: "/v1/\(trip)", body: nil, contentType: nil)],
             [Request(verb: "POST", path: "/maps.fleetengine.v1.TripService/GetTrip", body: frame(GetTripRequest(name: trip).protobufBytes()),
                      contentType: "application/grpc")]),
            ("UpdateVehicle (location), a vehicle per call in flight, durable sqlite",
             updated.map { Request(verb: "PUT", path: "/v1/\($0)?updateMask=lastLocation", body: Array(location.jsonBytes()), contentType: "application/json") },
             updated.map { Request(verb: "POST", path: "/maps.fleetengine.v1.VehicleService/UpdateVehicle",
                                   body: frame(UpdateVehicleRequest(name: $0, vehicle: location, updateMask: ["last_location"]).protobufBytes()),
                                   contentType: "application/grpc") }),
        ]
        let pid = server.process.processIdentifier
        for (index, call) in calls.enumerated() {
            let seconds = roundSeconds[min(index, roundSeconds.count - 1)]
            let restRun = { (seconds: Int) in load(h2load, server.url, call.rest, folder: folder, seconds: seconds, grpc: false, server: pid) }
            let grpcRun = { (seconds: Int) in load(h2load, "http://\(target)", call.grpc, folder: folder, seconds: seconds, grpc: true, server: pid) }
            _ = restRun(warmUpSeconds)
            _ = grpcRun(warmUpSeconds)
            var rest: [Load] = []
            var grpc: [Load] = []
            var failedRounds = 0
            for round in 0..<rounds {
                // Alternated order, so that a trend in the machine's load favours neither transport.
                let first = round % 2 == 0 ? restRun(seconds) : grpcRun(seconds)
                let second = round % 2 == 0 ? grpcRun(seconds) : restRun(seconds)
                guard let first, let second else {
                    failedRounds += 1
                    continue
                }
                rest.append(round % 2 == 0 ? first : second)
                grpc.append(round % 2 == 0 ? second : first)
            }
            guard !rest.isEmpty else {
                rows.append(BenchmarkRow(name: "\(call.name), REST and gRPC", failed: "h2load did not report"))
                continue
            }
            let ratios = zip(grpc, rest).map { $0.rate / $1.rate * 100 }.sorted()
            let shape = call.grpc.count == 1 ? "4 connections x 16 streams"
                : "\(call.grpc.count) connections x \(callsInFlight / call.grpc.count) stream\(call.grpc.count == callsInFlight ? "" : "s")"
            let notOK = rest.map(\.notOK).reduce(0, +)
            rows.append(BenchmarkRow(name: "\(call.name) over REST (HTTP/1.1, 64 connections)", value: .perSecond(median(rest.map(\.rate))),
                                     comparison: String(format: "p99 %.2fms; baseline; median of %d rounds of %d s%@", median(rest.map(\.p99Milliseconds)),
                                                        rest.count, seconds, notOK > 0 ? "; \(notOK) not 200" : "")))
            let aim = call.name == "GetTrip" ? "; aim >= 100%" : ""
            // What each side spends per call, gRPC against REST: the server's share says what is the
            // transport's; the load generator's, on the same cores, what the client takes from it.
            let server = median(grpc.map(\.serverMicros)) / max(0.001, median(rest.map(\.serverMicros))) * 100
            let client = median(grpc.map(\.clientMicros)) / max(0.001, median(rest.map(\.clientMicros))) * 100
            rows.append(BenchmarkRow(name: "\(call.name) over gRPC (\(shape))", value: .perSecond(median(grpc.map(\.rate))),
                                     comparison: String(format: "p99 %.2fms; %.0f%% of REST (median of %d rounds' ratios, %.0f–%.0f%%)%@; CPU per call against REST's: server %.0f%%, h2load %.0f%%",
                                                        median(grpc.map(\.p99Milliseconds)), median(ratios), ratios.count,
                                                        ratios.first!, ratios.last!, aim, server, client),
                                     ratio: median(ratios) / 100, baseline: "\(call.name) over REST"))
            func perRound(_ loads: [Load], _ value: (Load) -> Double) -> String {
                "rounds " + loads.map { String(format: "%.1f", value($0)) }.joined(separator: ", ")
            }
            for (transport, loads) in [("REST", rest), ("gRPC", grpc)] {
                rows.append(BenchmarkRow(name: "  \(call.name) server CPU per call, \(transport)",
                                         value: .microseconds(median(loads.map(\.serverMicros))),
                                         comparison: "fleet-admin serve, /proc/PID/stat; " + perRound(loads, \.serverMicros)))
            }
            let clientNote = call.rest.count == 1 ? "one h2load" : "\(call.rest.count) h2loads at once"
            for (transport, loads) in [("REST", rest), ("gRPC", grpc)] {
                rows.append(BenchmarkRow(name: "  \(call.name) load generator CPU per call, \(transport)",
                                         value: .microseconds(median(loads.map(\.clientMicros))),
                                         comparison: "\(clientNote), rusage; " + perRound(loads, \.clientMicros)))
            }
            // Idle CPU beside the rate: a transport whose rounds leave cores idle waits somewhere,
            // rather than costing more per call (near 0 on a machine busy with other work).
            for (transport, loads) in [("REST", rest), ("gRPC", grpc)] {
                rows.append(BenchmarkRow(name: "  \(call.name) machine idle CPU, \(transport)",
                                         value: .percent(median(loads.map(\.idlePercent)), decimals: 1),
                                         comparison: "/proc/stat, all cores; " + perRound(loads, \.idlePercent)))
            }
            if failedRounds > 0 {
                rows.append(BenchmarkRow(name: "  \(call.name): rounds h2load did not report", value: .count(failedRounds), comparison: "left out"))
            }
        }
        let failed = failedGRPCCalls(server.url)
        let notOKNote = "ABORTED would be concurrent writes of one vehicle that kept conflicting (REST's show as 409 above)"
        rows.append(failed.map { BenchmarkRow(name: "gRPC answers not OK (from /metrics)", value: .count($0), comparison: notOKNote) }
                    ?? BenchmarkRow(name: "gRPC answers not OK (from /metrics)", failed: "/metrics not read; " + notOKNote))
        return rows
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    struct Request {
        var verb: String
        var path: String
        var body: [UInt8]?
        var contentType: String?
    }

    /// One gRPC message frame: uncompressed, 4-byte big-endian length.
    static func frame(_ message: [UInt8]) -> [UInt8] {
        let n = UInt32(message.count)
        return [0, UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] + message
    }

    /// h2load runs of `seconds`, one per request at once (their rates added, their logs merged); 64
    /// calls in flight in all: for gRPC 4 connections of 16 streams (one request) or one connection of
    /// `64 / requests.count` streams per request; for REST as many HTTP/1.1 connections. With 64
    /// requests each has one call in flight and a connection of its own on both transports. The
    /// server's CPU (process `server`) and the h2loads' are read around the runs. With `calls`, the
    /// runs send that many calls in all (shared evenly among the requests) instead of running for `seconds`.
    static func load(_ h2load: String, _ base: String, _ requests: [Request], folder: String, seconds: Int, calls: Int? = nil,
                     grpc: Bool, server: Int32) -> Load? {
        let perRequest = max(1, callsInFlight / requests.count)
        let clientBefore = ProcessCPU.endedChildrenSeconds()
        let serverBefore = ProcessCPU.seconds(server)
        let machineBefore = CPUTimes.now()
        let runs = requests.map { request -> (Process, Pipe, String) in
            let log = "\(folder)/h2load-\(UUID().uuidString).log"
            var arguments = calls.map { ["-n", String($0 / requests.count)] } ?? ["-D", String(seconds)]
            arguments += ["--log-file", log, "-H", ":method: \(request.verb)"]
            if grpc {
                let connections = requests.count == 1 ? 4 : 1
                arguments += ["-c", String(connections), "-m", String(perRequest / connections), "-H", "te: trailers"]
            } else {
                arguments += ["--h1", "-c", String(perRequest), "-m", "1"]
            }
            if let contentType = request.contentType { arguments += ["-H", "content-type: \(contentType)"] }
            if let body = request.body {
                let path = "\(folder)/body-\(UUID().uuidString)"
                _ = FileManager.default.createFile(atPath: path, contents: Data(body))
                arguments += ["-d", path]
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: h2load)
            process.arguments = arguments + [base + request.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try? process.run()
            return (process, pipe, log)
        }
        var rate = 0.0
        var micros: [Double] = []
        var notOK = 0
        var reported = true
        for (process, pipe, log) in runs {
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(atPath: log) }
            for line in text.split(separator: "\n") where line.hasPrefix("finished in") {
                // finished in 5.00s, 59871.20 req/s, 12.34MB/s
                if let field = line.split(separator: ",").first(where: { $0.contains("req/s") }) {
                    rate += Double(field.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
                }
            }
            guard let contents = try? String(contentsOfFile: log, encoding: .utf8) else {
                reported = false
                continue
            }
            // Per request: start time (µs since the epoch), HTTP status, µs to the end of the response.
            for line in contents.split(separator: "\n") {
                let fields = line.split(separator: "\t")
                guard fields.count >= 3, let value = Double(fields[2]) else { continue }
                if fields[1] == "200" { micros.append(value) } else { notOK += 1 }
            }
        }
        let serverCPU = ProcessCPU.seconds(server) - serverBefore
        let clientCPU = ProcessCPU.endedChildrenSeconds() - clientBefore
        let idle = machineBefore.flatMap { before in CPUTimes.now().map { $0.idle(since: before) * 100 } } ?? 0
        guard reported, rate > 0, !micros.isEmpty else { return nil }
        micros.sort()
        let p99 = micros[min(micros.count - 1, Int(Double(micros.count) * 0.99))]
        return Load(rate: rate, p99Milliseconds: p99 / 1000, done: micros.count, notOK: notOK, serverCPU: serverCPU, clientCPU: clientCPU,
                    idlePercent: idle)
    }

    /// The gRPC calls the server answered with a status other than OK, from its `/metrics`.
    static func failedGRPCCalls(_ url: String) -> Int? {
        guard let client = try? HTTPClient(), let answer = try? client.send(HTTPClientRequest(url: url + "/metrics")) else { return nil }
        let text = answer.bodyText
        var failed = 0
        for line in text.split(separator: "\n") where line.hasPrefix("fleet_grpc_requests_total{") && !line.contains("code=\"OK\"") {
            FileHandle.standardError.write(Data("fleet-bench grpc: \(line)\n".utf8))
            failed += Int(line.split(separator: " ").last ?? "") ?? 0
        }
        return failed
    }
}
