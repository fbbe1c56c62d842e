import FleetInterface
import FleetErrors
import FleetModel
import FleetREST
import Foundation
import HTTPClient
import FleetConcurrency

/// The `http://` and `https://` transport: Fleet Engine's REST API over libcurl.
///
/// Works against `fleet-admin serve` and against Google's `https://fleetengine.googleapis.com` with a
/// real bearer token. Server and network failures of calls that are safe to repeat are retried with
/// exponential backoff and jitter (`RetryPolicy`), never sooner than a 503's or 429's `Retry-After`
/// (a server whose database is failing over answers 503); a create that may have reached the server
/// is never sent twice.
/// A 401 makes the token source refresh once before the next try.
public final class RESTClient: FleetCallPerforming, TripWatching, TaskWatching {
    /// The server's base URL, without a trailing slash (`http://127.0.0.1:8080`).
    public let baseURL: String
    let http: HTTPClient
    let token: (@Sendable (Bool) throws -> String)?
    let retry: RetryPolicy
    let timeout: Duration

    /// A client for `baseURL`; `token` supplies the bearer token (`forceRefresh` after a 401).
    public init(baseURL: String, token: (@Sendable (Bool) throws -> String)? = nil,
                retry: RetryPolicy = RetryPolicy(), timeout: Duration = .seconds(30)) throws {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw FleetError.invalidArgument("transport '\(baseURL)' must start with http:// or https://", field: "transport")
        }
        self.baseURL = base
        self.http = try HTTPClient(configuration: HTTPClientConfiguration(defaultTimeout: timeout))
        self.token = token
        self.retry = retry
        self.timeout = timeout
    }

    // MARK: FleetAPI

    /// Sends the call and decodes its answer (`FleetAPI`'s blocking calls come from this).
    public func perform<Response: ProtoMessage>(_ call: FleetCall, returning: Response.Type) throws -> Response {
        try send(call)
    }

    /// Sends a call that answers nothing.
    public func perform(_ call: FleetCall) throws {
        _ = try exchange(call)
    }

    // MARK: Watching

    /// Follows the server's `:watch` event stream of a trip (`trip` events). A server without it
    /// (Google's) answers 404 or 501, which is thrown as UNIMPLEMENTED so callers fall back to polling.
    ///
    /// The server ends a watch when the token that opened it expires, with an UNAUTHENTICATED `error`
    /// event: the watch is opened again at once with a fresh token from the token source, and its
    /// first event is the trip as it is then, so no change is lost. A fresh token refused at once
    /// (a 401, or an UNAUTHENTICATED event before any trip) ends the watch with that error.
    public func watchTrip(_ request: GetTripRequest, cancellation: Cancellation, onUpdate: (Trip) throws -> Void) throws {
        try watch(.watchTrip(request), of: request.name, event: "trip", cancellation: cancellation, onUpdate: onUpdate)
    }

    /// Follows the server's `:watch` event stream of a task (`task` events), as `watchTrip` follows a
    /// trip's: UNIMPLEMENTED from a server without it, a new token when the one that opened it expires.
    public func watchTask(_ request: GetTaskRequest, cancellation: Cancellation, onUpdate: (DeliveryTask) throws -> Void) throws {
        try watch(.watchTask(request), of: request.name, event: "task", cancellation: cancellation, onUpdate: onUpdate)
    }

    /// Follows the server's `:watch` event stream of a tracking ID (`taskTrackingInfo` events), as
    /// `watchTrip` follows a trip's: UNIMPLEMENTED from a server without it, a new token when the one
    /// that opened it expires.
    public func watchTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest, cancellation: Cancellation,
                                      onUpdate: (TaskTrackingInfo) throws -> Void) throws {
        try watch(.watchTaskTrackingInfo(request), of: request.name, event: "taskTrackingInfo", cancellation: cancellation, onUpdate: onUpdate)
    }

    /// Follows the event stream of a watch call of the resource `resource`, handing each `event` event's
    /// message to `onUpdate`.
    private func watch<Message: ProtoMessage>(_ call: FleetCall, of resource: String?, event name: String, cancellation: Cancellation,
                                              onUpdate: (Message) throws -> Void) throws {
        try call.checkResourceName()
        let rest = RESTMapping.request(for: call)
        let transfer = Cancellation()
        cancellation.onCancel { transfer.cancel() }
        var forceRefresh = false
        var refreshedWithoutMessage = false
        while true {
            let http = HTTPClientRequest(method: .get, url: baseURL + rest.target,
                                         headers: try headers(forceRefresh: forceRefresh) + [("Accept", "text/event-stream")])
            var failure: (any Error)?
            var streamError: FleetError?
            var delivered = false
            let finish = try self.http.stream(http, cancellation: transfer) { event in
                if event.type == "error" {
                    streamError = GoogleErrorBody.decode(status: 500, body: Array(event.data.utf8))
                    return .stop
                }
                guard event.type == name else { return .continue }
                do {
                    try onUpdate(try Message(jsonString: event.data))
                    delivered = true
                    return .continue
                } catch {
                    failure = error
                    return .stop
                }
            }
            if let failure { throw failure }
            if let streamError {
                // A token that expired while watching: a new one, and the watch goes on.
                if streamError.code == .unauthenticated, token != nil, delivered || !refreshedWithoutMessage {
                    forceRefresh = true
                    refreshedWithoutMessage = !delivered
                    continue
                }
                throw streamError
            }
            switch finish {
            case .cancelled, .stoppedByHandler:
                return
            case .endOfStream:
                throw FleetError(.streamAborted, detail: "the server ended the watch of \(resource ?? "")")
            case .rejected(let response):
                var error = GoogleErrorBody.decode(status: response.status, body: response.body)
                if response.status == 401 && !forceRefresh && token != nil {
                    forceRefresh = true
                    refreshedWithoutMessage = true
                    continue
                }
                if response.status == 404 && error.cause == ErrorCause.unknownPath.id || response.status == 501 || response.status == 405 {
                    error = FleetError(.methodNotImplemented, detail: "the server has no :watch stream")
                }
                throw error
            }
        }
    }

    // MARK: Sending

    private func send<Response: ProtoMessage>(_ call: FleetCall) throws -> Response {
        let body = try exchange(call)
        do {
            return try Response(jsonBytes: body, options: DecodingOptions(ignoreUnknownFields: true))
        } catch let error as FleetError {
            throw FleetError(.nonFleetResponse, detail: "\(call.method) answer did not decode: \(error.message)")
        }
    }

    /// Sends a call, retrying as the catalogue allows; returns the 2xx body or throws the server's error.
    private func exchange(_ call: FleetCall) throws -> [UInt8] {
        // A malformed resource name cannot form a Fleet Engine path: refuse it here with the error the
        // engine gives, so every transport answers alike.
        try call.checkResourceName()
        let rest = RESTMapping.request(for: call)
        let body = rest.body.map { $0.serializedBytes() }
        var attempt = 0
        var forceRefresh = false
        var refreshed = false
        while true {
            attempt += 1
            var headers = try self.headers(forceRefresh: forceRefresh)
            forceRefresh = false
            if body != nil { headers.append(("Content-Type", "application/json")) }
            let request = HTTPClientRequest(method: HTTPMethod(rawValue: rest.verb), url: baseURL + rest.target,
                                            headers: headers, body: body, timeout: timeout)
            let outcome: Result<HTTPClientResponse, FleetError>
            do {
                outcome = .success(try http.send(request))
            } catch let error as FleetError {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let response):
                if (200..<300).contains(response.status) { return response.body }
                var error = GoogleErrorBody.decode(status: response.status, body: response.body)
                if let value = response.headers["Retry-After"], let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
                    error.retryAfter = .seconds(seconds)
                }
                if response.status == 401, token != nil, !refreshed {
                    refreshed = true
                    forceRefresh = true
                    continue
                }
                // Over the server's rate limit: the call was refused before it was applied, so any
                // call may go again, once at least the time the server asked for has passed.
                if let wait = error.retryAfter, error.code == .resourceExhausted, attempt < retry.maxAttempts {
                    let delay = max(wait, retry.delay(forAttempt: attempt))
                    Thread.sleep(forTimeInterval: delay / .seconds(1))
                    continue
                }
                // The server answered, so the call reached it: only idempotent calls may go again.
                guard retry.shouldRetry(error: error, afterAttempt: attempt, idempotent: call.method.isIdempotent, mayHaveBeenSent: true) else {
                    throw error
                }
                // A server whose store is failing over (503) says when to look again: never sooner.
                if let wait = error.retryAfter {
                    Thread.sleep(forTimeInterval: max(wait, retry.delay(forAttempt: attempt)) / .seconds(1))
                    continue
                }
            case .failure(let error):
                guard retry.shouldRetry(error: error, afterAttempt: attempt, idempotent: call.method.isIdempotent) else { throw error }
            }
            let delay = retry.delay(forAttempt: attempt)
            Thread.sleep(forTimeInterval: delay / .seconds(1))
        }
    }

    func headers(forceRefresh: Bool) throws -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let token {
            headers.append(("Authorization", "Bearer " + (try token(forceRefresh))))
        }
        return headers
    }
}
