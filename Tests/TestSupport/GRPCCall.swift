import Foundation

/// One gRPC call to a real server, made with nghttp (Debian nghttp2-client) and a hand-framed
/// message: for tests of `fleet-admin serve --grpc-listen` that need no gRPC client library.
public enum GRPCCall {
    /// A gRPC answer as nghttp saw it: the trailers' status and message, and everything it printed.
    public struct Answer: Sendable {
        /// `grpc-status`, nil when no trailer came.
        public var status: Int?
        /// `grpc-message`, percent-decoded.
        public var message: String
        /// nghttp's whole output (headers, frames, body bytes).
        public var output: String
    }

    /// The server printed no `grpc://` address (it was started without `--grpc-listen`).
    public struct NoGRPCListener: Error, CustomStringConvertible {
        public let banner: String
        public var description: String { "no grpc:// in \(banner)" }
    }

    /// `HOST:PORT` of the server's gRPC listener, from the line it printed once ready.
    public static func target(_ server: ServerProcess) throws -> String {
        guard let start = server.banner.range(of: "grpc://") else { throw NoGRPCListener(banner: server.banner) }
        return String(server.banner[start.upperBound...].prefix { $0 != " " })
    }

    /// One message in gRPC's framing: the compressed flag, 4-byte big-endian length, the bytes.
    public static func frame(_ message: [UInt8], compressed: Bool = false) -> [UInt8] {
        let n = UInt32(message.count)
        return [compressed ? 1 : 0, UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] + message
    }

    /// Calls `method` (`/maps.fleetengine.v1.TripService/GetTrip`) with `message` through nghttp;
    /// headers as gRPC clients send them, plus `metadata` (`name: value`).
    public static func call(_ target: String, _ method: String, _ message: [UInt8], metadata: [String] = [], scheme: String = "http",
                            compressed: Bool = false) throws -> Answer {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("grpc-body-\(UUID().uuidString)")
        try Data(frame(message, compressed: compressed)).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nghttp")
        process.arguments = ["-v", "-t", "10", "-H", "content-type: application/grpc", "-H", "te: trailers", "-d", body.path]
            + metadata.flatMap { ["-H", $0] } + ["\(scheme)://\(target)\(method)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        func trailer(_ name: String) -> String? {
            text.split(separator: "\n").lazy.compactMap { line -> String? in
                guard let range = line.range(of: "] \(name): ") ?? line.range(of: ") \(name): ") else { return nil }
                return String(line[range.upperBound...])
            }.first
        }
        let message = (trailer("grpc-message") ?? "").removingPercentEncoding ?? ""
        return Answer(status: trailer("grpc-status").flatMap { Int($0) }, message: message, output: text)
    }

    /// Calls `method` on `server`'s gRPC listener, with `token` as `authorization: Bearer …` when given.
    public static func call(_ server: ServerProcess, _ method: String, _ message: [UInt8], token: String?) throws -> Answer {
        try call(target(server), method, message, metadata: token.map { ["authorization: Bearer \($0)"] } ?? [])
    }
}
