import HTTPCore
import FleetConcurrency
/// The state of one transfer, shared with libcurl's callbacks through their user-data pointer.
///
/// Lives on the calling thread: libcurl runs every callback of `curl_easy_perform` on the thread that
/// called it. Only `cancellation` is touched by other threads.
final class TransferContext {
    private let handle: CurlEasyHandle
    private let cancellation: Cancellation?
    /// How long the transfer may receive nothing before it is aborted; nil for no limit.
    let stallTimeout: Duration?
    private var lastActivity = ContinuousClock.now
    private var eventHandler: ((ServerSentEvent) -> StreamControl)?
    private var parser = ServerSentEventParser()
    private var deliversEvents: Bool?

    /// The body received (for a stream: only a rejected response's body).
    private(set) var body: [UInt8] = []
    /// The header fields of the latest response head.
    private(set) var headers = HTTPHeaders()
    /// Whether libcurl got as far as sending the request (a connection was established or reused).
    private(set) var requestSent = false
    /// Whether the event handler asked to stop.
    private(set) var stoppedByHandler = false
    /// Whether a callback saw the cancellation and aborted the transfer.
    private(set) var abortedByCancellation = false
    /// Whether the transfer was aborted because nothing arrived for `stallTimeout`.
    private(set) var abortedByStall = false

    /// A context collecting the body (`eventHandler == nil`) or parsing it into events for `eventHandler`;
    /// with a `stallTimeout`, the transfer is aborted when no byte arrives for that long.
    init(handle: CurlEasyHandle, cancellation: Cancellation?, stallTimeout: Duration? = nil,
         eventHandler: ((ServerSentEvent) -> StreamControl)?) {
        self.handle = handle
        self.cancellation = cancellation
        self.stallTimeout = stallTimeout
        self.eventHandler = eventHandler
    }

    /// Drops the event handler, which must not outlive the `stream` call that lent it.
    func releaseEventHandler() { eventHandler = nil }

    /// Takes one chunk of body; false aborts the transfer.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        if cancellation?.isCancelled == true {
            abortedByCancellation = true
            return false
        }
        if stallTimeout != nil { lastActivity = .now }
        guard let eventHandler else {
            body.append(contentsOf: chunk)
            return true
        }
        if deliversEvents == nil {
            deliversEvents = (200..<300).contains(handle.responseStatus())
        }
        guard deliversEvents == true else {
            body.append(contentsOf: chunk)  // the error body of a rejected stream
            return true
        }
        parser.consume(chunk) { event in
            guard !stoppedByHandler else { return }
            if eventHandler(event) == .stop { stoppedByHandler = true }
        }
        return !stoppedByHandler
    }

    /// Takes one header line (status line, field, or the blank line ending the head).
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        if stallTimeout != nil { lastActivity = .now }
        var line = String(decoding: bytes, as: UTF8.self)
        while let last = line.last, last == "\r" || last == "\n" || last == "\r\n" { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            headers = HTTPHeaders()  // a new response head: 100 Continue or a redirect came before
        } else if let first = line.first, first == " " || first == "\t", let previous = headers.fields.last {
            // An obsolete folded continuation line.
            var fields = headers.fields
            fields[fields.count - 1].value = previous.value + " " + line.trimmingSpaces()
            headers = HTTPHeaders(fields)
        } else if let colon = line.firstIndex(of: ":") {
            headers.add(name: String(line[..<colon]), value: String(line[line.index(after: colon)...]).trimmingSpaces())
        }
    }

    /// libcurl's periodic progress check (about once a second when idle); true aborts the transfer.
    ///
    /// The stall check is ours rather than libcurl's low-speed limit, which averages over several
    /// seconds and would take a stream of tiny heartbeats (`:\n` every 5 s) for a dead one.
    func shouldAbort() -> Bool {
        if cancellation?.isCancelled == true {
            abortedByCancellation = true
            return true
        }
        if let stallTimeout, lastActivity.duration(to: .now) > stallTimeout {
            abortedByStall = true
            return true
        }
        return false
    }

    /// Notes that a connection is ready and the request is about to be sent.
    func markRequestSent() { requestSent = true }
}

private extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
