import Dispatch
import FleetErrors
import HTTPCore
import FleetConcurrency

/// A blocking HTTP/1.1 and HTTP/2 client on libcurl, for calling threads (not async tasks).
///
/// Safe to share between threads. Each call borrows an easy handle from a pool (the same one for a
/// thread calling repeatedly), so keep-alive connections are reused; all handles of a client share
/// the DNS and TLS session caches. TLS verifies the peer and host against the system CA store unless
/// `configuration.tls` says otherwise.
///
/// Any HTTP status is a response; only transport failures throw, as `FleetError`
/// (`serverUnreachable`, `tlsHandshakeFailed`, `connectionLost`, `serverStalled`: UNAVAILABLE;
/// `callDeadlineExceeded`, `deadlineExceededWhileConnecting`: DEADLINE_EXCEEDED; `streamCancelled`: CANCELLED;
/// `invalidHTTPRequest`: INVALID_ARGUMENT).
public final class HTTPClient: Sendable {
    /// The settings every call uses.
    public let configuration: HTTPClientConfiguration
    private let pool: EasyHandlePool

    /// A client; initialises libcurl on first use in the process.
    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) throws {
        self.configuration = configuration
        self.pool = EasyHandlePool(share: try CurlShare(), maxIdle: configuration.maxIdleHandles)
    }

    /// Sends `request` and waits for the whole response, on the calling thread.
    ///
    /// The call is limited by `request.timeout`, or `configuration.defaultTimeout` when nil.
    /// Cancelling `cancellation` from another thread makes it throw CANCELLED (`streamCancelled`).
    public func send(_ request: HTTPClientRequest, cancellation: Cancellation? = nil) throws -> HTTPClientResponse {
        let handle = try pool.checkOut()
        defer { pool.checkIn(handle) }
        let context = TransferContext(handle: handle, cancellation: cancellation, eventHandler: nil)
        let transfer = CurlTransfer(request: request, configuration: configuration,
                                    timeout: request.timeout ?? configuration.defaultTimeout, isEventStream: false)
        switch try transfer.run(on: handle, context: context, cancellation: cancellation) {
        case .completed(let status):
            return HTTPClientResponse(status: status, headers: context.headers, body: context.body)
        case .cancelled, .stoppedByHandler:
            throw FleetError(.streamCancelled, detail: "\(request.method) \(request.url)")
        }
    }

    /// Sends `request` on a dispatch worker thread and awaits the response; cancelling the task
    /// cancels the transfer (CANCELLED).
    public func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try self.send(request, cancellation: cancellation) })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Opens a server-sent events stream (`GET` with `Accept: text/event-stream` unless the request
    /// says otherwise) and hands each event to `onEvent` on the calling thread until the stream ends,
    /// `onEvent` returns `.stop`, or `cancellation` is cancelled from another thread.
    ///
    /// The status is checked before any event: a non-2xx answer returns `.rejected` with its body.
    /// The stream has no overall limit unless `request.timeout` sets one; it fails UNAVAILABLE
    /// (`serverStalled`) when nothing arrives for `configuration.streamStallTimeout`.
    public func stream(_ request: HTTPClientRequest, cancellation: Cancellation? = nil,
                       onEvent: (ServerSentEvent) -> StreamControl) throws -> StreamFinishReason {
        let handle = try pool.checkOut()
        defer { pool.checkIn(handle) }
        return try withoutActuallyEscaping(onEvent) { onEvent in
            let context = TransferContext(handle: handle, cancellation: cancellation,
                                          stallTimeout: configuration.streamStallTimeout, eventHandler: onEvent)
            defer { context.releaseEventHandler() }
            let transfer = CurlTransfer(request: request, configuration: configuration,
                                        timeout: request.timeout, isEventStream: true)
            switch try transfer.run(on: handle, context: context, cancellation: cancellation) {
            case .completed(let status) where (200..<300).contains(status):
                return .endOfStream
            case .completed(let status):
                return .rejected(HTTPClientResponse(status: status, headers: context.headers, body: context.body))
            case .stoppedByHandler:
                return .stoppedByHandler
            case .cancelled:
                return .cancelled
            }
        }
    }
}
