import FleetErrors
import Foundation
import GRPCServer

/// How `fleet-admin serve` serves Fleet Engine's gRPC API (`--grpc-listen`, `--grpc-tls-cert`,
/// `--grpc-tls-key`).
public struct GRPCServeOptions: Sendable {
    /// `HOST:PORT`; port 0 picks a free port.
    public var listen: String
    /// PEM certificate chain and private key files for TLS; plain text when nil.
    public var tlsCertificateFile: String?
    public var tlsKeyFile: String?

    public init(listen: String, tlsCertificateFile: String? = nil, tlsKeyFile: String? = nil) {
        self.listen = listen
        self.tlsCertificateFile = tlsCertificateFile
        self.tlsKeyFile = tlsKeyFile
    }

    /// The server's configuration: the address checked, the TLS files read, every served method
    /// registered. Serving threads are `threads`, as many as REST's, a completion queue each: on a
    /// 2-core machine shared with other work, 4 served GetTrip at about 15,100 calls/s against
    /// 11,300/s with one per core (4 runs each, alternated, load average 9), since a process's share
    /// of a busy machine grows with its threads; and per call they cost no more CPU than 2 (38–43 µs
    /// either way over 3 alternated runs of 150,000 calls, load average 8–11), while 1 costs more
    /// (43–46 µs). In `fleet-bench grpc`, 2 threads cost less per UpdateVehicle (64 connections of one
    /// call each: 84–116 µs against 96–136 µs with 4, fewer wake-ups of a thread other than the
    /// polling one) but more per GetTrip (45–50 µs against 38–43 µs, 4 runs each, load average 4–20,
    /// 4 threads always run first, which flatters the second),
    /// so GetTrip, the call served most, keeps REST's count. (Measured with the core's `epoll1` engine,
    /// before `GRPCServer.Configuration.pollStrategy` chose `poll`.)
    func configuration(threads: Int, maxMessageBytes: Int) throws -> GRPCServer.Configuration {
        var options = ServeOptions()
        options.listen = listen
        let (host, port): (String, Int)
        do {
            (host, port) = try options.hostAndPort()
        } catch var error as FleetError {
            error.message = error.message.replacingOccurrences(of: "--listen", with: "--grpc-listen")
            error.field = "grpc-listen"
            throw error
        }
        var configuration = GRPCServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.threads = max(1, threads)
        configuration.maxMessageBytes = maxMessageBytes
        configuration.methods = FleetGRPCService.methodPaths
        configuration.log = { FileHandle.standardError.write(Data("fleet-admin serve: \($0)\n".utf8)) }
        switch (tlsCertificateFile, tlsKeyFile) {
        case (let certificate?, let key?):
            configuration.tls = GRPCServer.TLS(certificateChainPEM: try ServeOptions.read(certificate, option: "--grpc-tls-cert"),
                                               privateKeyPEM: try ServeOptions.read(key, option: "--grpc-tls-key"))
        case (nil, nil):
            break
        default:
            throw FleetError.invalidArgument("--grpc-tls-cert and --grpc-tls-key go together: give both or neither", field: "grpc-tls-cert")
        }
        return configuration
    }
}
