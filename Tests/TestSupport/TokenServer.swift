import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A token server on loopback for `--token-url` (python3's http.server, which `make setup` installs).
///
/// A GET for a path ending in `ID` answers `{"token": T, "expiration_timestamp_ms": an hour from now}`,
/// where `T` is the next of `tokens[ID]` (the last one repeats), else `jwt-for-ID`. With `body` every
/// answer is that text instead (a server answering garbage). The paths asked for are recorded. A
/// request from a web page (with `Origin`) is answered with CORS headers that let the page read it.
public final class TokenServer: @unchecked Sendable {
    /// Whether python3 is installed (tests that need the server are skipped without it).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let process = Process()
    private let requestLog: URL

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Starts a server whose files (its configuration, the request log) go to `folder`.
    public init(folder: URL, tokens: [String: [String]] = [:], body: String? = nil) throws {
        let name = "token-server-\(UUID().uuidString.prefix(8))"
        requestLog = folder.appendingPathComponent("\(name).requests")
        let configuration = folder.appendingPathComponent("\(name).json")
        var settings: [String: Any] = ["tokens": tokens]
        if let body { settings["body"] = body }
        try JSONSerialization.data(withJSONObject: settings).write(to: configuration)
        let script = """
            import http.server, json, sys, time
            log = open(sys.argv[1], "a", buffering=1)
            settings = json.load(open(sys.argv[2]))
            served = {}
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    log.write(self.path + "\\n")
                    key = self.path.rsplit("/", 1)[-1]
                    if "body" in settings:
                        body = settings["body"].encode()
                    else:
                        given = settings["tokens"].get(key)
                        if given:
                            count = served.get(key, 0)
                            served[key] = count + 1
                            token = given[min(count, len(given) - 1)]
                        else:
                            token = "jwt-for-" + key
                        body = json.dumps({"token": token, "expiration_timestamp_ms": int((time.time() + 3600) * 1000)}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    # As an app's token endpoint answers a map page of another origin, with its cookies.
                    if self.headers.get("Origin"):
                        self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin"))
                        self.send_header("Access-Control-Allow-Credentials", "true")
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
        process.arguments = ["-c", script, requestLog.path, configuration.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcesses.register(process.processIdentifier)
        // The first line python prints is the port: read it byte by byte (the pipe stays open while it runs).
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw StartFailure(description: "the token server did not start: '\(line)'")
        }
        self.port = port
    }

    /// The paths requested so far, in order.
    public var requests: [String] {
        ((try? String(contentsOf: requestLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The paths requested once there are at least `count` (or after `timeout` seconds, as many as there are):
    /// for a test waiting for a token to expire and be fetched again.
    public func requests(atLeast count: Int, timeout: Double = 30) -> [String] {
        var asked = requests
        for _ in 0..<Int(timeout * 10) where asked.count < count {
            usleep(100_000)
            asked = requests
        }
        return asked
    }

    deinit {
        // SIGKILL: a child of the test runner inherits its blocked signal mask, so SIGTERM could wait.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }
}
