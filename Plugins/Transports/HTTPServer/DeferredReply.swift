import CMicroHTTPD
import Synchronization

/// A response the application gives later, from any thread: the handler returns
/// `.deferred(reply)` at once and calls `complete(_:)` when the answer is ready (a write that waits
/// for a group commit, say). Meanwhile the connection is parked (suspended in libmicrohttpd), so the
/// server thread goes on serving its other connections instead of waiting.
///
/// The response is built by the closure given to `complete(_:)`, which runs on the connection's
/// server thread: whoever completes the reply (a store's writer thread) only hands it over.
public final class DeferredReply: Sendable {
    public typealias Produce = @Sendable () -> HTTPResponse

    private let state = Mutex(State())

    public init() {}

    /// Gives the answer. Only the first call counts.
    public func complete(_ produce: @escaping Produce) {
        let (parked, diverted): (ConnectionHandle?, Deliver?) = state.withLock { state in
            guard state.produce == nil else { return (nil, nil) }
            state.produce = produce
            if let diverted = state.diverted { return (nil, diverted) }
            guard state.isSuspended else { return (nil, nil) }
            state.isSuspended = false
            return (state.connection, nil)
        }
        if let diverted {
            diverted(produce())
            return
        }
        // Resumed after the lock is released: the connection was suspended under it, so it is
        // suspended by now, and only this call resumes it. Resuming under the lock made the server
        // thread, woken by the resume at once, wait for the lock.
        if let parked { MHD_resume_connection(parked.pointer) }
    }

    // MARK: Connection side (server threads only)

    /// The answer if it has been given; otherwise parks `connection` until it is (libmicrohttpd then
    /// calls the access handler again) and returns nil.
    func responseOrSuspend(_ connection: OpaquePointer) -> HTTPResponse? {
        let produce: Produce? = state.withLock { state in
            if let produce = state.produce { return produce }
            state.connection = ConnectionHandle(pointer: connection)
            state.isSuspended = true
            MHD_suspend_connection(connection)
            return nil
        }
        return produce?()
    }

    /// Where a diverted answer goes (`divert(to:)`).
    typealias Deliver = @Sendable (HTTPResponse) -> Void

    /// libmicrohttpd ended the request before its answer was sent: the answer goes to `deliver`
    /// instead, at once if it was given, else from `complete(_:)`. libmicrohttpd 0.9.75 ends a
    /// request whose client half-closed (`shutdown(SHUT_WR)` after sending it) as soon as it reads
    /// that end of file, which a parked request meets when it is resumed; the client still reads.
    func divert(to deliver: @escaping Deliver) {
        let produce: Produce? = state.withLock { state in
            if let produce = state.produce { return produce }
            state.diverted = deliver
            state.isSuspended = false
            state.connection = nil
            return nil
        }
        if let produce { deliver(produce()) }
    }

    private struct State: ~Copyable {
        var produce: Produce?
        var diverted: Deliver?
        var connection: ConnectionHandle?
        var isSuspended = false
    }

    /// A libmicrohttpd connection, used only under the lock while its request is waiting.
    private struct ConnectionHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }
}
