import FleetAuth
import FleetErrors
import FleetInterface
import FleetModel
import FleetREST
import Foundation
import HTTPServer
import MapPages


/// Fleet Engine's REST API over any implementation of it that can also be watched (the engine is
/// one): routing, authorization, the Google error format, `/healthz`, `/metrics` and the `:watch`
/// event streams.
public final class FleetService: Sendable {
    /// What answers the calls and the watches.
    let engine: any FleetServing
    let verifier: TokenVerifier?
    let provider: String?
    public let metrics: ServerMetrics
    /// The map pages, when served.
    let map: MapSite?
    let requestGuard: RequestGuard

    /// A service; with a `verifier`, every Fleet Engine call needs a valid bearer token whose role
    /// allows it; with a `provider`, only that provider's resources are served; `requestGuard`
    /// holds the rate limit and the hosts answered without a verifier; with a `map`, the map pages
    /// are served under `/map`.
    public init(engine: any FleetServing, verifier: TokenVerifier?, provider: String?, metrics: ServerMetrics,
                requestGuard: RequestGuard = RequestGuard(), map: MapSite? = nil) {
        self.engine = engine
        self.verifier = verifier
        self.provider = provider
        self.metrics = metrics
        self.map = map
        self.requestGuard = requestGuard
    }

    /// Answers one HTTP request (called on the server's threads).
    public func handle(_ request: HTTPRequest) -> HTTPReply {
        switch (request.method, request.path) {
        case ("GET", "/healthz"), ("HEAD", "/healthz"):
            return .response(.json(Array(#"{"status":"ok"}"#.utf8)))
        default:
            break
        }
        if verifier == nil {
            do { try requestGuard.checkHost(request) } catch { return .response(Self.errorResponse(Self.fleetError(error))) }
        }
        switch (request.method, request.path) {
        case ("GET", "/metrics"):
            do { try authorizeMetrics(header: request.headers["authorization"]) } catch { return .response(Self.errorResponse(Self.fleetError(error))) }
            return .response(metricsResponse())
        default:
            if let reply = handleExtension(request) { return reply }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var method: FleetMethod?
        do {
            try limitUnverified(address: request.remoteAddress)
            try requestGuard.checkContentType(request)
            try Self.checkQueryText(request)
            let query = request.query.map { ($0.name, $0.value) }
            let call = try RESTMapping.call(verb: request.method, path: request.path, query: query, body: request.body)
            method = call.method
            let encoding = try RESTMapping.encoding(query: query)
            let (admitted, token) = try admit(call, authorization: request.headers["authorization"], address: request.remoteAddress)
            return try perform(admitted, start: start, token: token, encoding: encoding)
        } catch {
            let error = Self.fleetError(error)
            count(method, error.code, since: start)
            return .response(Self.errorResponse(error))
        }
    }

    /// The metrics in Prometheus text format.
    func metricsResponse() -> HTTPResponse {
        var response = HTTPResponse.text(metrics.render())
        response.headers.set(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
        return response
    }

    /// Answers a request to the `--metrics-listen` address: `GET /metrics` without a token (the
    /// address is for the scraper alone) and `/healthz`; 404 for everything else. Requests must name a
    /// host the server answers (`RequestGuard.checkHost`), so a web page cannot read them through a
    /// rebound name.
    public func handleMetricsListener(_ request: HTTPRequest) -> HTTPReply {
        do { try requestGuard.checkHost(request) } catch { return .response(Self.errorResponse(Self.fleetError(error))) }
        switch (request.method, request.path) {
        case ("GET", "/metrics"): return .response(metricsResponse())
        case ("GET", "/healthz"), ("HEAD", "/healthz"): return .response(.json(Array(#"{"status":"ok"}"#.utf8)))
        default: return .response(Self.errorResponse(FleetError(.unknownPath, detail: "\(request.path): this address serves /metrics and /healthz only")))
        }
    }

    /// Counts a finished call in the metrics.
    private func count(_ method: FleetMethod?, _ code: GRPCCode, since start: UInt64) {
        metrics.request(method: method, code: code, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// The error as the client sees it: a `FleetError`, or an internal fault naming what went wrong.
    /// An error whose cause has a `publicMessage` (the store's: their details name the database's
    /// user, host, port and name, or a file's path) is answered with that message alone, and its
    /// own message goes to the server's log (standard error).
    static func fleetError(_ error: any Error) -> FleetError {
        let error = error as? FleetError ?? FleetError(.internalFault, detail: String(describing: error))
        guard let id = error.cause, let shown = ErrorCatalogue.cause(id: id)?.publicMessage, error.message != shown else { return error }
        StandardError.write("fleet-admin serve: \(error.code.name) \(id): \(error.message)")
        var answered = FleetError(code: error.code, message: shown, cause: id)
        answered.retryAfter = error.retryAfter
        return answered
    }

    /// A reply given once `run`'s engine call completes, its body written by `encode`. The JSON is
    /// written on the connection's thread, not on the store's writer thread that completes the call.
    func answerLater<Response: Sendable>(
        method: FleetMethod, start: UInt64, encode: @escaping @Sendable (Response) -> [UInt8],
        _ run: (@escaping @Sendable (Result<Response, any Error>) -> Void) -> Void
    ) -> HTTPReply {
        let reply = DeferredReply()
        run { [self] outcome in
            let answer = outcome.mapError(Self.fleetError)
            let code: GRPCCode = switch answer {
            case .success: .ok
            case .failure(let error): error.code
            }
            count(method, code, since: start)
            reply.complete {
                switch answer {
                case .success(let response): .json(encode(response))
                case .failure(let error): Self.errorResponse(error)
                }
            }
        }
        return .deferred(reply)
    }

    /// How long a 503 (UNAVAILABLE: the store is unreachable, as during a database failover) asks the
    /// client to wait when its error names no time of its own: a failover under Patroni takes a few
    /// seconds, so the first retry a second later either finds the new primary or backs off further.
    public static let unavailableRetryAfter = Duration.seconds(1)

    /// Google's error body with the matching HTTP status, and `Retry-After` when the error names a wait
    /// (over the rate limit) or is UNAVAILABLE.
    public static func errorResponse(_ error: FleetError) -> HTTPResponse {
        var response = HTTPResponse.json(GoogleErrorBody.encode(error).serializedBytes(), status: GoogleErrorBody.httpStatus(for: error))
        if error.code == .unauthenticated { response.headers.set(name: "WWW-Authenticate", value: "Bearer") }
        if let wait = error.retryAfter ?? (error.code == .unavailable ? unavailableRetryAfter : nil) {
            // Whole seconds, rounded up: a client that waits this long finds the request admitted.
            let seconds = max(1, wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0))
            response.headers.set(name: "Retry-After", value: String(seconds))
        }
        return response
    }

    // MARK: Calls

    /// Runs the call. A call that writes is answered once its commit completes: its connection
    /// waits parked, not the server thread, so no server thread ever waits for the store's group
    /// commit. A call that only reads is answered at once.
    /// A watch ends when `token` expires (`endAtExpiry`). The answer's JSON is written as `encoding`
    /// says (`$alt=json;enum-encoding=int`: enums by number).
    func perform(_ call: FleetCall, start: UInt64, token: VerifiedToken? = nil, encoding: EncodingOptions = EncodingOptions()) throws -> HTTPReply {
        let method = call.method
        func now(_ reply: HTTPReply) -> HTTPReply {
            count(method, .ok, since: start)
            return reply
        }
        if method.isStream && encoding.enumsAsNumbers {
            throw FleetError.invalidArgument("Invalid value at '$alt': a :watch stream writes enums by name; \"json;enum-encoding=int\" is for unary calls", field: "$alt")
        }
        switch call {
        case .watchTrip(let request):
            return now(try watch(event: "trip", token: token) { try engine.observeTrip(request, onUpdate: $0, onEnd: $1) })
        case .watchTask(let request):
            return now(try watch(event: "task", token: token) { try engine.observeTask(request, onUpdate: $0, onEnd: $1) })
        case .watchTaskTrackingInfo(let request):
            return now(try watch(event: "taskTrackingInfo", token: token) {
                try engine.observeTaskTrackingInfo(request, onUpdate: $0, onEnd: $1)
            })
        case .updateVehicle(let request) where !encoding.enumsAsNumbers:
            // The hot path: the engine hands back the vehicle's stored JSON (enums by name) instead of encoding it again.
            return answerLater(method: method, start: start, encode: { $0 }) { engine.updateVehicleJSON(request, completion: $0) }
        case .updateDeliveryVehicle(let request) where !encoding.enumsAsNumbers:
            // A van's location reports: the engine answers with the stops' JSON it keeps, not the 20 stops encoded again.
            return answerLater(method: method, start: start, encode: { $0 }) { engine.updateDeliveryVehicleJSON(request, completion: $0) }
        case .getTaskTrackingInfo(let request):
            // What the person waiting sees: the route through 20 stops is joined from the text kept of each leg.
            return now(.response(.json(try engine.getTaskTrackingInfoJSON(request, options: encoding))))
        default:
            if method.isReadOnly { return now(.response(.json(try call.respond(from: engine).jsonBytes(options: encoding)))) }
            return answerLater(method: method, start: start, encode: { $0.jsonBytes(options: encoding) }) { call.respond(from: engine, completion: $0) }
        }
    }

    /// One `event` event per change of the watched trip, task or tracking info (the message as its Get
    /// call returns it), the first at once; an `error` event (Google's error body) if the watch fails or
    /// `token` expires. No thread waits for a watch: the engine's feed for the request sends to every
    /// stream watching it, and a stream holds no server thread between events. `observe` starts the
    /// engine's watch with the stream's delivery and end.
    func watch<Message: ProtoMessage>(
        event: String, token: VerifiedToken?,
        observe: (_ onUpdate: @escaping @Sendable (WatchSnapshot<Message>) -> Bool,
                  _ onEnd: @escaping @Sendable (FleetError) -> Void) throws -> WatchObservation<Message>
    ) throws -> HTTPReply {
        let stream = EventStream(headers: ["Cache-Control": "no-store"])
        let observation = try observe({ snapshot in
            stream.send(event: event, data: snapshot.json)
        }, { error in
            stream.send(event: "error", data: GoogleErrorBody.encode(Self.fleetError(error)).serialized())
            stream.close()
        })
        metrics.watches(1)
        stream.onClose { [metrics] _ in
            observation.cancel()
            metrics.watches(-1)
        }
        endAtExpiry(of: token, stream)
        return .eventStream(stream)
    }
}
