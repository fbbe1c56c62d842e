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
    private let maxConnectionsPerClient: Int?
    private let timeoutResponse: @Sendable (_ message: String) -> [UInt8]
    private let connections = Mutex<OpenConnections>(OpenConnections())
    /// The connections refused since the last summary (`sweep()` writes one line per client and interval).
    private let refusals = Mutex<RefusalTally>(RefusalTally())
    private let diagnostics: @Sendable (String) -> Void
    /// How often refused connections are summed up in the diagnostics: one line per client address
    /// and interval, not one per connection (a burst of thousands would flood the log).
    static let refusalSummaryInterval: UInt64 = 10_000_000_000
    /// How long a connection answered 408 may go on sending before it is cut: time for the client
    /// to read the answer instead of meeting a reset.
    static let lingerAfterTimeout: Duration = .seconds(2)
    /// How often `sweep()` runs: deadlines are kept to within this, and a closed stream is noticed within it.
    static let sweepInterval: DispatchTimeInterval = .milliseconds(500)

    init(configuration: HTTPServer.Configuration) {
        headerTimeout = configuration.headerTimeout
        bodyTimeout = configuration.bodyTimeout
        maxConnections = configuration.maxConnections
        maxConnectionsPerClient = configuration.maxConnectionsPerClient.flatMap { $0 > 0 ? $0 : nil }
        diagnostics = configuration.diagnostics
        let errorBody = configuration.errorBody
        timeoutResponse = { message in errorBody(408, message).serialized(status: 408, closing: true) }
    }

    /// Linux's `POLLRDHUP` (the peer closed its end), which Glibc shows Swift only under `_GNU_SOURCE`.
    private static let pollReadHangUp: Int16 = 0x2000

    /// Connections open now.
    var count: Int { connections.withLock { $0.records.count } }

    /// Whether a new connection from `address` may be accepted (the accept policy): fewer than the
    /// server's limit are open, and fewer than the per-client limit from that address. A refusal is
    /// counted for the next summary. The count of a connection starts when libmicrohttpd reports it
    /// open, just after this check, so connections accepted by several server threads at the same
    /// instant may pass a limit by at most one per thread.
    func admits(address: String) -> Bool {
        let refusal: RefusalTally.Reason? = connections.withLock { open in
            if open.records.count >= maxConnections { return .serverLimit }
            if let limit = maxConnectionsPerClient, open.perAddress[address, default: 0] >= limit { return .clientLimit }
            return nil
        }
        guard let refusal else { return true }
        refusals.withLock { $0.add(address: address, reason: refusal, now: ConnectionRecord.nowNanoseconds()) }
        return false
    }

    /// A connection was accepted: its record, kept by libmicrohttpd until `closed(_:)`.
    func opened(descriptor: Int32, remoteAddress: String) -> ConnectionRecord {
        let record = ConnectionRecord(descriptor: descriptor, remoteAddress: remoteAddress)
        connections.withLock { open in
            open.records[ObjectIdentifier(record)] = record
            open.perAddress[remoteAddress, default: 0] += 1
        }
        return record
    }

    /// libmicrohttpd is done with the connection (its socket is closed right after).
    func closed(_ record: ConnectionRecord) {
        if record.markClosed() {
            let copy = dup(record.descriptor)
            if copy >= 0 { LingeringClose.start(copy) }
        }
        connections.withLock { open in
            guard open.records.removeValue(forKey: ObjectIdentifier(record)) != nil else { return }
            let left = open.perAddress[record.remoteAddress, default: 1] - 1
            open.perAddress[record.remoteAddress] = left > 0 ? left : nil
        }
    }

    /// The summary lines of the connections refused since the last one, once an interval has passed
    /// since the first of them; empty otherwise (and then nothing is taken).
    func refusalSummary(now: UInt64 = ConnectionRecord.nowNanoseconds()) -> [String] {
        let tally = refusals.withLock { tally -> RefusalTally? in
            guard let first = tally.firstRefusal, now &- first >= Self.refusalSummaryInterval else { return nil }
            defer { tally = RefusalTally() }
            return tally
        }
        guard let tally, let first = tally.firstRefusal else { return [] }
        let seconds = max(1, Int((now &- first) / 1_000_000_000))
        return tally.byAddress.sorted { $0.key < $1.key }.map { address, counts in
            var reasons: [String] = []
            if counts.clientLimit > 0, let limit = maxConnectionsPerClient {
                reasons.append("\(counts.clientLimit) over the per-client limit of \(limit) open connections")
            }
            if counts.serverLimit > 0 {
                reasons.append("\(counts.serverLimit) while the server had its limit of \(maxConnections) open")
            }
            let total = counts.clientLimit + counts.serverLimit
            return "refused \(total) connection\(total == 1 ? "" : "s") from \(address.isEmpty ? "an unknown address" : address) in the last \(seconds) s (\(reasons.joined(separator: "; ")))"
        }
    }

    /// Enforces the header and body deadlines and ends the event streams whose clients hung up.
    /// Runs on a timer, about once a second.
    func sweep(now: UInt64 = ConnectionRecord.nowNanoseconds()) {
        for line in refusalSummary(now: now) { diagnostics(line) }
        let records = connections.withLock { Array($0.records.values) }
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

/// The open connections, and how many of them each client address holds.
private struct OpenConnections {
    var records: [ObjectIdentifier: ConnectionRecord] = [:]
    var perAddress: [String: Int] = [:]
}

/// Connections refused since the last summary, by client address and reason.
private struct RefusalTally {
    enum Reason { case clientLimit, serverLimit }
    struct Counts { var clientLimit = 0, serverLimit = 0 }

    var byAddress: [String: Counts] = [:]
    /// When the first refusal since the last summary happened (monotonic nanoseconds).
    var firstRefusal: UInt64?

    mutating func add(address: String, reason: Reason, now: UInt64) {
        if firstRefusal == nil { firstRefusal = now }
        switch reason {
        case .clientLimit: byAddress[address, default: Counts()].clientLimit += 1
        case .serverLimit: byAddress[address, default: Counts()].serverLimit += 1
        }
    }
}

/// One connection as the registry sees it; its phase changes on the connection's server thread,
/// and the registry's timer reads it.
///
/// The phase is one atomic word (its kind and the time it began), changed by compare-and-swap:
/// a request changes it four times, and a lock around it cost two atomic operations each time
/// where a swap costs one.
final class ConnectionRecord: Sendable {
    /// The connection's socket (valid until `markClosed()`: libmicrohttpd closes it after that).
    let descriptor: Int32
    /// The client's IP address.
    let remoteAddress: String
    private let state: Atomic<UInt64>
    /// The stream being sent, once the phase is `.streaming`.
    private let stream = Mutex<EventStream?>(nil)
    private let lingers = Atomic<Bool>(false)

    /// What the connection is doing; stored in the low bits of `state`, above them the monotonic
    /// nanosecond it began (for the phases that have a deadline).
    enum Phase: UInt64 {
        /// Waiting for a request's line and headers since the connection opened or its previous
        /// exchange ended.
        case awaitingRequest = 0
        /// The same, once the request line is in.
        case awaitingHeaders = 1
        /// The headers are in; the body is arriving.
        case readingBody = 2
        /// The request is complete and being answered (no deadline here: a deferred answer may wait
        /// for a commit, and sending is bounded by the connection timeout).
        case answering = 3
        /// An event stream is being sent.
        case streaming = 4
        /// Answered 408 by the registry; cut once the client had time to read it.
        case timedOut = 5
        /// libmicrohttpd closed the connection.
        case closed = 6
    }

    private static let phaseBits: UInt64 = 3
    private static func word(_ phase: Phase, at nanoseconds: UInt64) -> UInt64 { nanoseconds << phaseBits | phase.rawValue }
    private static func phase(of word: UInt64) -> Phase { Phase(rawValue: word & (1 << phaseBits - 1)) ?? .closed }
    private static func since(_ word: UInt64) -> UInt64 { word >> phaseBits }

    /// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`, which does not count suspension).
    static func nowNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    init(descriptor: Int32, remoteAddress: String) {
        self.descriptor = descriptor
        self.remoteAddress = remoteAddress
        state = Atomic(Self.word(.awaitingRequest, at: Self.nowNanoseconds()))
    }

    /// Moves to the phase `change` gives for the current one (nil: stays); returns the phase it was in.
    @discardableResult
    private func transition(_ change: (Phase, UInt64) -> UInt64?) -> Phase {
        var current = state.load(ordering: .acquiring)
        while true {
            let phase = Self.phase(of: current)
            guard let next = change(phase, current) else { return phase }
            let (exchanged, original) = state.weakCompareExchange(expected: current, desired: next,
                                                                  ordering: .acquiringAndReleasing)
            if exchanged { return phase }
            current = original
        }
    }

    /// The request line arrived.
    func requestLineArrived() {
        transition { phase, word in phase == .awaitingRequest ? Self.word(.awaitingHeaders, at: Self.since(word)) : nil }
    }

    /// The headers are complete: the body deadline starts. False when the registry already
    /// answered the connection 408 (the request must then be dropped).
    func headersArrived() -> Bool {
        let now = Self.nowNanoseconds()
        let was = transition { phase, _ in phase == .timedOut || phase == .closed ? nil : Self.word(.readingBody, at: now) }
        return was != .timedOut && was != .closed
    }

    /// The request is complete; false when it was answered 408 meanwhile.
    func requestComplete() -> Bool {
        let was = transition { phase, _ in
            switch phase {
            case .timedOut, .closed, .streaming: nil
            default: Self.word(.answering, at: 0)
            }
        }
        return was != .timedOut && was != .closed
    }

    /// The reply is an event stream.
    func streamStarted(_ stream: EventStream) {
        self.stream.withLock { $0 = stream }
        transition { phase, _ in phase == .answering ? Self.word(.streaming, at: 0) : nil }
    }

    /// The exchange ended; the connection now waits for its next request.
    func exchangeEnded() {
        let now = Self.nowNanoseconds()
        transition { phase, _ in phase == .timedOut || phase == .closed ? nil : Self.word(.awaitingRequest, at: now) }
    }

    /// The connection will be closed with part of a request unread: close it lingering.
    func lingerOnClose() {
        lingers.store(true, ordering: .releasing)
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
        state.store(Self.word(.closed, at: 0), ordering: .releasing)
        stream.withLock { $0 = nil }
        return lingers.load(ordering: .acquiring)
    }

    enum Watch {
        case streaming(descriptor: Int32, stream: EventStream)
    }

    /// What `enforceDeadlines` does once it has moved the phase.
    private enum Action {
        case answerTimeout(String)
        case cut
    }

    /// Answers 408 and cuts the connection when its deadline has passed; returns the stream to
    /// check for a hang-up when one is being sent. `now` is in `nowNanoseconds()`'s terms.
    func enforceDeadlines(now: UInt64, headerTimeout: Duration?, bodyTimeout: Duration?,
                          timeoutResponse: (String) -> [UInt8]) -> Watch? {
        func passed(_ word: UInt64, _ limit: Duration) -> Bool {
            let since = Self.since(word)
            return now > since && Duration.nanoseconds(Int64(now - since)) > limit
        }
        var action: Action?
        let was = transition { phase, word in
            action = nil
            switch phase {
            case .awaitingRequest:
                guard let headerTimeout, passed(word, headerTimeout) else { return nil }
                // An idle keep-alive connection (or one that never sent a byte): closing it
                // without an answer is what HTTP expects; clients open a new one.
                action = .cut
                return Self.word(.closed, at: 0)
            case .awaitingHeaders:
                guard let headerTimeout, passed(word, headerTimeout) else { return nil }
                action = .answerTimeout("its header fields took more than \(headerTimeout.wholeSeconds) s")
                return Self.word(.timedOut, at: now)
            case .readingBody:
                guard let bodyTimeout, passed(word, bodyTimeout) else { return nil }
                action = .answerTimeout("its body took more than \(bodyTimeout.wholeSeconds) s")
                return Self.word(.timedOut, at: now)
            case .timedOut:
                guard passed(word, ConnectionRegistry.lingerAfterTimeout) else { return nil }
                // Reading ends too: libmicrohttpd sees the end of the stream and closes the connection.
                action = .cut
                return Self.word(.closed, at: 0)
            case .answering, .streaming, .closed:
                return nil
            }
        }
        switch action {
        case .answerTimeout(let message): answerTimeout(timeoutResponse(message))
        case .cut: _ = shutdown(descriptor, Int32(SHUT_RDWR))
        case nil: break
        }
        if was == .streaming, let stream = stream.withLock({ $0 }) {
            return .streaming(descriptor: descriptor, stream: stream)
        }
        return nil
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
