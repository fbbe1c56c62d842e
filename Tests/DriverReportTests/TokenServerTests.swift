import FleetGeo
import Foundation
import Glibc
import Testing

/// A token server on loopback (python3's http.server, which `make setup` installs): answers every GET
/// with `{"token": …, "expiration_timestamp_ms": …}` and records the paths asked for.
final class TokenServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    let requestLog: URL

    init(folder: URL) throws {
        requestLog = folder.appendingPathComponent("token-requests.txt")
        let script = """
            import http.server, json, sys, time
            log = open(sys.argv[1], "a", buffering=1)
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    log.write(self.path + "\\n")
                    body = json.dumps({"token": "jwt-for-" + self.path.rsplit("/", 1)[-1],
                                       "expiration_timestamp_ms": int((time.time() + 3600) * 1000)}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, requestLog.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line python prints is the port: read it byte by byte (a pipe stays open while it runs).
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        let line = String(decoding: bytes, as: UTF8.self)
        port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)), "the token server did not start: '\(line)'")
    }

    /// The paths requested so far.
    var requests: [String] {
        ((try? String(contentsOf: requestLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    deinit {
        // SIGKILL: a child of the test runner inherits its blocked signal mask, so SIGTERM would wait.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

@Suite("driver-report with a token server", .serialized)
struct TokenServerTests {
    @Test("--token-url fetches the vehicle's token (its ID filled into the URL) before reporting",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed (make setup installs it)"))
    func fetchesToken() throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-10")
        let server = try TokenServer(folder: fleet.folder)
        let run = try Products.run(fleet.transportArguments + [
            "--vehicle", "cab-10", "--source", "simulate:polyline:" + Polyline.encode(Array(testRoute.prefix(2))), "--speedup", "50",
            "--token-url", "http://127.0.0.1:\(server.port)/token/driver/{vehicle}",
        ], folder: fleet.folder)
        #expect(run.status == 0, "\(run.log)")
        #expect(server.requests == ["/token/driver/cab-10"], "one fetch: the token is cached for its hour")
        #expect(try fleet.vehicle("cab-10").vehicleState == .offline)
    }

    @Test("A token server that answers without the configured key is a clear error (exit 26)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed (make setup installs it)"))
    func wrongKey() throws {
        let fleet = try SharedFleet()
        try fleet.createVehicle("cab-11")
        let server = try TokenServer(folder: fleet.folder)
        let run = try Products.run(fleet.transportArguments + [
            "--vehicle", "cab-11", "--source", "nmea:-", "--token-url", "http://127.0.0.1:\(server.port)/t/{vehicle}",
            "--token-key", "access_token",
        ], folder: fleet.folder)
        #expect(run.status == 26, "\(run.log)")
        let log = run.log.replacingOccurrences(of: "\n", with: " ")
        #expect(log.contains(#"without a string "access_token""#), "\(run.log)")
        #expect(log.contains("--token-key"))
    }
}
