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
    /// registered. Serving threads are `threads` (REST's) but at most one per core, a completion
    /// queue each. gRPC's core polls for all of them and wakes the thread whose queue gets a call
    /// (a futex wait and a context switch when it is not the polling thread): with 64 connections of
    /// one call each, 4 threads on 2 cores cost 95–121 µs of server CPU per UpdateVehicle against
    /// 88–109 µs with 2 (medians 105 and 88, 3 alternated runs, load average 11–22), while a GetTrip
    /// on 4 connections of 16 streams cost the same with 2 as with 4 (38–43 µs). 1 thread costs a
    /// GetTrip more (43–46 µs).
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
        configuration.threads = max(1, min(threads, ProcessInfo.processInfo.activeProcessorCount))
        configuration.maxMessageBytes = maxMessageBytes
        configuration.methods = FleetGRPCService.methodPaths
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
