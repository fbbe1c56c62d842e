import CMicroHTTPD
import Synchronization
import HTTPCore

/// A `text/event-stream` reply that stays open: the application writes events to it from any
/// thread, for as long as it likes, and learns through `onClose` when it ends.
///
/// Return it from the handler as `.eventStream(stream)`. Events sent before that are buffered and
/// go out first. While nothing is waiting to be sent the connection is parked (suspended in
/// libmicrohttpd): it holds no thread and costs no CPU. A client that closes its end is noticed
/// within a second (the server looks for hung-up streams twice a second); one that vanished without
/// closing (its machine went off the network) is noticed by the `: keepalive` comment the server
/// writes to every open stream at its heartbeat interval, at the latest two heartbeats later.
public final class EventStream: Sendable {
    /// Why a stream ended.
    public enum CloseReason: Sendable, Hashable {
        /// The application called `close()`; the events buffered before were sent.
        case closedByApplication
        /// The client closed the connection, or writing to it failed or timed out.
        case clientDisconnected
        /// The server is stopping.
        case serverStopping
        /// The client read too slowly: more than `maxBufferedBytes` were waiting, so the stream was cut.
        case slowClient
        /// The stream was never sent: as many streams as the server allows (in all, or for the
        /// client's address) were open, so the request was answered 429 instead.
        case refused
    }

    /// Header fields added to the reply (after `Content-Type: text/event-stream` and `Cache-Control: no-cache`).
    public let headers: HTTPHeaders
    /// The most bytes that may wait for a slow client before the stream is cut (`CloseReason.slowClient`).
    public let maxBufferedBytes: Int

    private let state: Mutex<State>

    /// A new stream, not yet sent. `retry` adds a `retry:` field first, telling clients how long to
    /// wait before reconnecting.
    public init(headers: HTTPHeaders = [:], retry: Duration? = nil, maxBufferedBytes: Int = 1 << 20) {
        self.headers = headers
        self.maxBufferedBytes = maxBufferedBytes
        var initial = State()
        if let retry { initial.pending.append(contentsOf: ServerSentEvent.retry(after: retry)) }
        state = Mutex(initial)
    }

    /// Queues an event; false when the stream has ended or is closing (the event is dropped).
    @discardableResult
    public func send(event: String? = nil, data: String, id: String? = nil) -> Bool {
        send(ServerSentEvent(event: event, data: data, id: id))
    }

    /// Queues an event; false when the stream has ended or is closing (the event is dropped).
    @discardableResult
    public func send(_ event: ServerSentEvent) -> Bool {
        enqueue(event.encoded)
    }

    /// Queues a comment line (`: text`), which clients ignore; false when the stream has ended.
    @discardableResult
    public func sendComment(_ text: String) -> Bool {
        enqueue(ServerSentEvent.comment(text))
    }

    /// Ends the stream once the events already queued are sent. Safe to call more than once.
    public func close() {
        requestClose(.closedByApplication)
    }

    /// Whether the stream has ended or is closing: further events are dropped.
    public var isClosed: Bool {
        state.withLock { $0.closeRequest != nil || $0.finishedReason != nil }
    }

    /// Registers code to run once, when the server is done with the stream (on a server thread:
    /// keep it short). Runs at once if the stream has already ended.
    public func onClose(_ body: @escaping @Sendable (CloseReason) -> Void) {
        let finished: CloseReason? = state.withLock { state in
            if state.finishedReason == nil { state.closeHandlers.append(body) }
            return state.finishedReason
        }
        if let finished { body(finished) }
    }

    /// Ends a stream that will never be sent (see `CloseReason.refused`).
    func refuse() {
        finish(connectionOutcome: .refused)
    }

    /// Bytes handed to the connection so far (for the access log).
    var bytesWritten: Int { state.withLock { $0.bytesWritten } }

    // MARK: Connection side (server threads only)

    /// Binds the stream to the connection that will send it; false if it is already bound.
    func attach(to connection: OpaquePointer) -> Bool {
        state.withLock { state in
            guard state.connection == nil, state.finishedReason == nil, !state.wasAttached else { return false }
            state.connection = ConnectionHandle(pointer: connection)
            state.wasAttached = true
            return true
        }
    }

    /// Asks the stream to end for this reason (the first reason wins); wakes the connection if parked.
    func requestClose(_ reason: CloseReason) {
        state.withLock { state in
            guard state.closeRequest == nil, state.finishedReason == nil else { return }
            state.closeRequest = reason
            if reason == .slowClient { state.pending.removeAll() }
            state.wakeConnection()
        }
    }

    /// libmicrohttpd's content reader: copies waiting bytes to `buffer`; with none, parks the
    /// connection (returns 0 after suspending it) or ends the stream when it is closing.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            if state.pending.count > state.readOffset {
                let offset = state.readOffset
                let count = min(capacity, state.pending.count - offset)
                state.pending.withUnsafeBufferPointer { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
                }
                state.readOffset += count
                state.bytesWritten += count
                if state.readOffset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.readOffset = 0
                }
                return count
            }
            if let reason = state.closeRequest {
                return reason == .slowClient ? Self.endWithError : Self.endOfStream
            }
            guard let connection = state.connection else { return Self.endWithError }
            // Suspend under the lock, so a concurrent send() cannot resume before we are suspended.
            state.isSuspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// Called when the connection is done; runs the close handlers once.
    func finish(connectionOutcome: CloseReason) {
        let (reason, handlers): (CloseReason?, [@Sendable (CloseReason) -> Void]) = state.withLock { state in
            guard state.finishedReason == nil else { return (nil, []) }
            let reason = state.closeRequest ?? connectionOutcome
            state.finishedReason = reason
            state.connection = nil
            state.isSuspended = false
            state.pending = []
            state.readOffset = 0
            let handlers = state.closeHandlers
            state.closeHandlers = []
            return (reason, handlers)
        }
        guard let reason else { return }
        for handler in handlers { handler(reason) }
    }

    private func enqueue(_ bytes: [UInt8]) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.closeRequest == nil, state.finishedReason == nil else { return false }
            guard state.pending.count - state.readOffset + bytes.count <= maxBufferedBytes else {
                state.closeRequest = .slowClient
                state.pending.removeAll()
                state.readOffset = 0
                state.wakeConnection()
                return false
            }
            if state.readOffset > 0, state.readOffset >= state.pending.count / 2 {
                state.pending.removeFirst(state.readOffset)
                state.readOffset = 0
            }
            state.pending.append(contentsOf: bytes)
            state.wakeConnection()
            return true
        }
        return accepted
    }

    private static let endOfStream = -1  // MHD_CONTENT_READER_END_OF_STREAM
    private static let endWithError = -2  // MHD_CONTENT_READER_END_WITH_ERROR

    private struct State: ~Copyable {
        /// Bytes queued; those before `readOffset` were already handed to the connection.
        var pending: [UInt8] = []
        var readOffset = 0
        var bytesWritten = 0
        var connection: ConnectionHandle?
        var wasAttached = false
        /// Whether the connection is suspended in libmicrohttpd waiting for bytes.
        var isSuspended = false
        var closeRequest: CloseReason?
        var finishedReason: CloseReason?
        var closeHandlers: [@Sendable (CloseReason) -> Void] = []

        /// Resumes a parked connection (under the lock: it was suspended under the same lock).
        mutating func wakeConnection() {
            guard isSuspended, let connection else { return }
            isSuspended = false
            MHD_resume_connection(connection.pointer)
        }
    }

    /// A libmicrohttpd connection; it is used only under the stream's lock, while the connection lives.
    private struct ConnectionHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }
}
