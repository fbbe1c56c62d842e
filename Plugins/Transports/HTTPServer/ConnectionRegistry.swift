import Dispatch
import Glibc
import Synchronization
import HTTPCore

/// Every open connection and what it is doing, so that the server can enforce what libmicrohttpd
/// 0.9.75 cannot: a deadline for a request's headers and for its body (its own timeout is an idle
/// timeout, which a client sending one header line every few seconds never reaches), a limit on
/// connections in all that refuses at once instead of leaving new connections waiting in the
/// listen queue, and noticing a closed event stream within a second (a parked stream is not
/// polled by libmicrohttpd, so its client's close was only seen at the next heartbeat write).
///
/// Fed by libmicrohttpd's connection notifications and by the dispatcher; a timer (`sweep()`)
/// enforces the deadlines and looks for hung-up streams.
final class ConnectionRegistry: Sendable {
    private let headerTimeout: Duration?
    private let bodyTimeout: Duration?
    private let maxConnections: Int
    private let timeoutResponse: @Sendable (_ message: String) -> [UInt8]
    private let connections = Mutex<[ObjectIdentifier: ConnectionRecord]>([:])
    /// How long a connection answered 408 may go on sending before it is cut: time for the client
    /// to read the answer instead of meeting a reset.
    static let lingerAfterTimeout: Duration = .seconds(2)
    /// How often `sweep()` runs: deadlines are kept to within this, and a closed stream is noticed within it.
    static let sweepInterval: DispatchTimeInterval = .milliseconds(500)

    init(configuration: HTTPServer.Configuration) {
        headerTimeout = configuration.headerTimeout
        bodyTimeout = configuration.bodyTimeout
        maxConnections = configuration.maxConnections
        let errorBody = configuration.errorBody
        timeoutResponse = { message in errorBody(408, message).serialized(status: 408, closing: true) }
    }

    /// Linux's `POLLRDHUP` (the peer closed its end), which Glibc shows Swift only under `_GNU_SOURCE`.
    private static let pollReadHangUp: Int16 = 0x2000

    /// Connections open now.
    var count: Int { connections.withLock { $0.count } }

    /// Whether one more connection may be accepted (the accept policy).
    var acceptsMore: Bool { count < maxConnections }

    /// A connection was accepted: its record, kept by libmicrohttpd until `closed(_:)`.
    func opened(descriptor: Int32, remoteAddress: String) -> ConnectionRecord {
        let record = ConnectionRecord(descriptor: descriptor, remoteAddress: remoteAddress)
        connections.withLock { $0[ObjectIdentifier(record)] = record }
        return record
    }

    /// libmicrohttpd is done with the connection (its socket is closed right after).
    func closed(_ record: ConnectionRecord) {
        if record.markClosed() {
            let copy = dup(record.descriptor)
            if copy >= 0 { LingeringClose.start(copy) }
        }
        connections.withLock { $0[ObjectIdentifier(record)] = nil }
    }

    /// Enforces the header and body deadlines and ends the event streams whose clients hung up.
    /// Runs on a timer, about once a second.
    func sweep(now: ContinuousClock.Instant = .now) {
        let records = connections.withLock { Array($0.values) }
        var streams: [(descriptor: Int32, stream: EventStream)] = []
        for record in records {
            switch record.enforceDeadlines(now: now, headerTimeout: headerTimeout, bodyTimeout: bodyTimeout,
                                           timeoutResponse: timeoutResponse) {
            case .streaming(let descriptor, let stream): streams.append((descriptor, stream))
            case nil: break
            }
        }
        guard !streams.isEmpty else { return }
        // A client that closed its end shows as a hang-up (its FIN) at once, without writing to it.
        // One that only half-closed shows the same and is taken as gone too: telling them apart
        // needs a write, and a stream's clients (EventSource, curl, ours) never half-close.
        var polled = streams.map { pollfd(fd: $0.descriptor, events: Self.pollReadHangUp, revents: 0) }
        guard poll(&polled, nfds_t(polled.count), 0) > 0 else { return }
        let hungUp = Self.pollReadHangUp | Int16(POLLHUP) | Int16(POLLERR)
        for (index, entry) in polled.enumerated() where entry.revents & hungUp != 0 {
            streams[index].stream.requestClose(.clientDisconnected)
        }
    }
}

/// One connection as the registry sees it; its phase changes on the connection's server thread,
/// and the registry's timer reads it.
final class ConnectionRecord: Sendable {
    /// The connection's socket (valid until `markClosed()`: libmicrohttpd closes it after that).
    let descriptor: Int32
    /// The client's IP address.
    let remoteAddress: String
    private let phase: Mutex<Phase>
    private let lingers = Mutex(false)

    enum Phase {
        /// Waiting for a request's line and headers since the connection opened or its previous
        /// exchange ended; `requestLineSeen` once the request line is in.
        case awaitingRequest(since: ContinuousClock.Instant, requestLineSeen: Bool)
        /// The headers are in; the body is arriving.
        case readingBody(since: ContinuousClock.Instant)
        /// The request is complete and being answered (no deadline here: a deferred answer may wait
        /// for a commit, and sending is bounded by the connection timeout).
        case answering
        /// An event stream is being sent.
        case streaming(EventStream)
        /// Answered 408 by the registry; cut once the client had time to read it.
        case timedOut(at: ContinuousClock.Instant)
        /// libmicrohttpd closed the connection.
        case closed
    }

    init(descriptor: Int32, remoteAddress: String) {
        self.descriptor = descriptor
        self.remoteAddress = remoteAddress
        phase = Mutex(.awaitingRequest(since: .now, requestLineSeen: false))
    }

    /// The request line arrived.
    func requestLineArrived() {
        phase.withLock { phase in
            if case .awaitingRequest(let since, _) = phase { phase = .awaitingRequest(since: since, requestLineSeen: true) }
        }
    }

    /// The headers are complete: the body deadline starts. False when the registry already
    /// answered the connection 408 (the request must then be dropped).
    func headersArrived() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .timedOut, .closed: return false
            default:
                phase = .readingBody(since: .now)
                return true
            }
        }
    }

    /// The request is complete; false when it was answered 408 meanwhile.
    func requestComplete() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .timedOut, .closed: return false
            case .streaming: return true
            default:
                phase = .answering
                return true
            }
        }
    }

    /// The reply is an event stream.
    func streamStarted(_ stream: EventStream) {
        phase.withLock { phase in
            if case .answering = phase { phase = .streaming(stream) }
        }
    }

    /// The exchange ended; the connection now waits for its next request.
    func exchangeEnded() {
        phase.withLock { phase in
            switch phase {
            case .timedOut, .closed: break
            default: phase = .awaitingRequest(since: .now, requestLineSeen: false)
            }
        }
    }

    /// The connection will be closed with part of a request unread: close it lingering.
    func lingerOnClose() {
        lingers.withLock { $0 = true }
    }

    /// Writes `response` straight to the socket while the request's body is arriving, when
    /// libmicrohttpd can queue none, and has the connection closed lingering once libmicrohttpd
    /// ends it. libmicrohttpd writes nothing to a connection before a request is complete, so the
    /// write does not interleave with its own.
    func answerWhileReadingBody(_ response: [UInt8]) {
        lingerOnClose()
        _ = response.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    }

    /// libmicrohttpd closed the connection (its socket is still open, closed right after);
    /// returns whether it should close lingering (`lingerOnClose()`).
    func markClosed() -> Bool {
        phase.withLock { $0 = .closed }
        return lingers.withLock { $0 }
    }

    enum Watch {
        case streaming(descriptor: Int32, stream: EventStream)
    }

    /// Answers 408 and cuts the connection when its deadline has passed; returns the stream to
    /// check for a hang-up when one is being sent.
    func enforceDeadlines(now: ContinuousClock.Instant, headerTimeout: Duration?, bodyTimeout: Duration?,
                          timeoutResponse: (String) -> [UInt8]) -> Watch? {
        phase.withLock { phase in
            switch phase {
            case .awaitingRequest(let since, let requestLineSeen):
                guard let headerTimeout, since.duration(to: now) > headerTimeout else { return nil }
                if requestLineSeen {
                    answerTimeout(timeoutResponse("its header fields took more than \(headerTimeout.wholeSeconds) s"))
                    phase = .timedOut(at: now)
                } else {
                    // An idle keep-alive connection (or one that never sent a byte): closing it
                    // without an answer is what HTTP expects; clients open a new one.
                    _ = shutdown(descriptor, Int32(SHUT_RDWR))
                    phase = .closed
                }
            case .readingBody(let since):
                guard let bodyTimeout, since.duration(to: now) > bodyTimeout else { return nil }
                answerTimeout(timeoutResponse("its body took more than \(bodyTimeout.wholeSeconds) s"))
                phase = .timedOut(at: now)
            case .timedOut(let at):
                if at.duration(to: now) > ConnectionRegistry.lingerAfterTimeout {
                    // Reading ends too: libmicrohttpd sees the end of the stream and closes the connection.
                    _ = shutdown(descriptor, Int32(SHUT_RDWR))
                    phase = .closed
                }
            case .streaming(let stream):
                return .streaming(descriptor: descriptor, stream: stream)
            case .answering, .closed:
                break
            }
            return nil
        }
    }

    /// Writes the 408 straight to the socket and ends the sending side. libmicrohttpd 0.9.75 can
    /// queue a response only once a request's headers and body are complete, and it writes
    /// nothing to a connection before that, so this write does not interleave with its own.
    private func answerTimeout(_ response: [UInt8]) {
        _ = response.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }
}

extension HTTPResponse {
    /// The response as HTTP/1.1 bytes, for the few answers written without libmicrohttpd.
    func serialized(status: Int, closing: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(status))\r\n"
        for field in headers where !HTTPHeaders.sameName(field.name, "Content-Length") && !HTTPHeaders.sameName(field.name, "Connection") {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n"
        if closing { head += "Connection: close\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}

extension Duration {
    /// Whole seconds, at least 1, for messages.
    var wholeSeconds: Int64 { max(1, components.seconds) }
}
