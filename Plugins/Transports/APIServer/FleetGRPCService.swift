import FleetAuth
import FleetErrors
import FleetModel
import FleetInterface
import FleetREST
import Foundation
import GRPCServer

/// Fleet Engine's gRPC API (`FleetMethod.services`, every method of the table with a gRPC path) over the
/// same `FleetService`: a call's binary protobuf becomes the same `FleetCall` a REST request becomes, and passes the same provider check, token, role and rate limit
/// to the same engine, counted in the same metrics. So Google's own gRPC clients and REST clients get
/// the same answers, and the same errors with the same codes and messages.
public struct FleetGRPCService: Sendable {
    let service: FleetService

    public init(service: FleetService) {
        self.service = service
    }

    /// Serves one call (on a gRPC serving thread); answers at once for reads, from the store's commit
    /// for writes.
    public func handle(_ request: GRPCRequest, _ responder: GRPCResponder) {
        let start = DispatchTime.now().uptimeNanoseconds
        let metrics = service.metrics
        let served = Self.methods[request.method]
        // Named before the message is decoded, so that a malformed message counts against its method.
        let method = served?.method ?? Self.metricsMethod(request.method)
        let finish: @Sendable (FleetMethod?, Result<ProtobufAnswer, FleetError>) -> Void = { method, result in
            let code: GRPCCode = switch result {
            case .success: .ok
            case .failure(let error): error.code
            }
            metrics.request(method: method, code: code, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, grpc: true)
            switch result {
            case .success(.bytes(let bytes)): responder.respond(.success(bytes))
            // A write's answer, completed on the store's writer thread: encoded where it is sent.
            case .success(.message(let message)): responder.respond(producing: { .success(message.protobufBytes()) })
            case .failure(let error): responder.respond(.failure(GRPCStatus(code: error.code, message: error.message, details: Self.statusDetails(error))))
            }
        }
        do {
            // The peer's address, read only when a rate limit needs it.
            let address = { Self.host(of: request.peerAddress) }
            try service.limitUnverified(address: address())
            let call = try served.map { try $0.decode(request.message) } ?? Self.call(method: request.method, message: request.message)
            let admitted = try service.admit(call, authorization: request[metadata: "authorization"], address: address()).call
            let method = call.method
            service.performProtobuf(admitted) { finish(method, $0) }
        } catch {
            finish(method, .failure(FleetService.fleetError(error)))
        }
    }

    /// A served method: its name for metrics and how its request message becomes a call.
    struct ServedMethod: Sendable {
        var method: FleetMethod
        var decode: @Sendable ([UInt8]) throws -> FleetCall
    }

    /// The paths of the served methods, registered with the gRPC server so that their calls arrive
    /// with their request message (one completion fewer per call than a path it does not know).
    public static var methodPaths: [String] { methods.keys.sorted() }

    /// Every served method by its full path (`/maps.fleetengine.v1.TripService/GetTrip`), from the
    /// method table: one hash lookup per call names the method and picks its decoder, instead of
    /// splitting the path for metrics and comparing it with each method in turn.
    static let methods: [String: ServedMethod] = Dictionary(uniqueKeysWithValues: FleetMethod.allCases.compactMap { method in
        method.grpcPath.map { ($0, ServedMethod(method: method, decode: { try FleetCall(method: method, protobuf: $0) })) }
    })

    /// The method a path that is not served counts against on `/metrics`: its last component when it
    /// names one of ours in one of our services (a deprecated or misplaced method), else none.
    static func metricsMethod(_ path: String) -> FleetMethod? {
        guard let service = service(of: path), FleetMethod.services.contains(service) else { return nil }
        return path.split(separator: "/").last.flatMap { FleetMethod(rawValue: String($0)) }
    }

    /// The service of a method path (`/maps.fleetengine.v1.TripService/GetTrip` → `maps.fleetengine.v1.TripService`).
    static func service(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].isEmpty ? String(parts[1]) : nil
    }

    /// The call a gRPC method path and its request message make. UNIMPLEMENTED for a method the
    /// services do not have (or that is retired and not served); INVALID_ARGUMENT (MALFORMED_PROTOBUF)
    /// naming the field for a message that is not the method's request.
    public static func call(method: String, message: [UInt8]) throws -> FleetCall {
        if let served = methods[method] { return try served.decode(message) }
        if let retired = FleetMethod.retired.first(where: { $0.grpcPath == method }) {
            throw FleetError(.methodNotImplemented, detail: "\(method) is \(retired.reason)")
        }
        guard let service = service(of: method), FleetMethod.services.contains(service) else {
            throw FleetError(.methodNotImplemented, detail: "\(method) (this server serves \(FleetMethod.services.joined(separator: ", ")))")
        }
        throw FleetError(.methodNotImplemented, detail: method)
    }

    /// The error as a `google.rpc.Status` with the details REST's error body carries: `ErrorInfo` (the
    /// catalogue cause as `reason`) and `BadRequest` (the field at fault).
    static func statusDetails(_ error: FleetError) -> [UInt8] {
        var writer = ProtoBinaryWriter()
        writer.writeInt32(1, error.code.rawValue)
        writer.writeString(2, error.message)
        func any(_ type: String, _ body: @escaping (inout ProtoBinaryWriter) -> Void) {
            writer.writeLengthDelimited(3) { any in
                any.writeString(1, "type.googleapis.com/\(type)")
                any.writeLengthDelimited(2, body)
            }
        }
        if let cause = error.cause {
            any("google.rpc.ErrorInfo") { info in
                info.writeString(1, cause)
                info.writeString(2, "fleetengine.googleapis.com")
            }
        }
        if let field = error.field {
            any("google.rpc.BadRequest") { request in
                request.writeLengthDelimited(1) { violation in
                    violation.writeString(1, field)
                    violation.writeString(2, error.message)
                }
            }
        }
        return writer.bytes
    }

    /// The address part of a peer (`127.0.0.1:40312` → `127.0.0.1`), so that a client's rate does not
    /// depend on which connection it used.
    static func host(of peer: String) -> String {
        if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") { return String(peer[peer.index(after: peer.startIndex)..<close]) }
        guard let colon = peer.lastIndex(of: ":") else { return peer }
        return String(peer[..<colon])
    }
}

/// A call's response: binary protobuf already written (a read's, encoded on the serving thread), or
/// a write's message, to be encoded by whichever thread sends the answer rather than by the store's
/// writer thread that completes the call.
enum ProtobufAnswer: Sendable {
    case bytes([UInt8])
    case message(any ProtoBinaryMessage & Sendable)
}

extension FleetService {
    /// Runs an admitted call and hands `completion` the response message (`google.protobuf.Empty` is
    /// no bytes). Reads complete before this returns; writes complete once their commit is durable,
    /// on the store's writer thread, holding no serving thread meanwhile.
    func performProtobuf(_ call: FleetCall, completion: @escaping @Sendable (Result<ProtobufAnswer, FleetError>) -> Void) {
        if call.method.isStream {
            completion(.failure(FleetError(.methodNotImplemented, detail: "\(call.method) is a stream, served over REST (\(call.method.http.verb) \(call.method.http.path)), not gRPC")))
            return
        }
        if case .getTaskTrackingInfo(let request) = call {
            // What the person waiting sees: the kept answer while the shipment's records are unchanged.
            completion(Result { .bytes(try engine.getTaskTrackingInfoProtobuf(request)) }.mapError(Self.fleetError))
            return
        }
        if call.method.isReadOnly {
            completion(Result { .bytes(try call.respond(from: engine).protobufBytes()) }.mapError(Self.fleetError))
            return
        }
        call.respond(from: engine) { outcome in
            completion(outcome.map { response in
                switch response {
                case .message(let message): .message(message)
                case .empty: .bytes([])
                }
            }.mapError(Self.fleetError))
        }
    }
}
