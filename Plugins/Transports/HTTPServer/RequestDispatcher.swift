import CMicroHTTPD
import CMicroHTTPDShim
import FleetErrors
import Foundation
import Glibc
import Synchronization
import HTTPCore

/// Receives libmicrohttpd's calls for one daemon: collects each request, runs the handler,
/// queues its reply, and reports the finished exchange. Runs on the daemon's threads.
final class RequestDispatcher: Sendable {
    let configuration: HTTPServer.Configuration
    let handler: @Sendable (HTTPRequest) -> HTTPReply
    let activity = ActivityTracker()
    /// Every open connection, for the deadlines and limits libmicrohttpd does not enforce itself.
    let connections: ConnectionRegistry
    /// Set when the server starts stopping: replies then ask the client to close the connection.
    let isStopping = Atomic<Bool>(false)

    init(configuration: HTTPServer.Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPReply) {
        self.configuration = configuration
        self.handler = handler
        connections = ConnectionRegistry(configuration: configuration)
    }

    // MARK: libmicrohttpd's access handler

    /// One call of the access handler; see `MicroHTTPDCallbacks.accessHandler`.
    func access(connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
                uploadDataSize: UnsafeMutablePointer<Int>,
                requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let slot = requestSlot.pointee else {
            // First call: the headers are in. Create the request's context (released in `completed`).
            let record = cmhd_connection_socket_context(connection).map {
                Unmanaged<ConnectionRecord>.fromOpaque($0).takeUnretainedValue()
            }
            let context = RequestContext(
                method: method.map { String(cString: $0) } ?? "",
                path: url.map { PercentEncoding.escapingRawBytes(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? "",
                httpVersion: version.map { String(cString: $0) } ?? "",
                remoteAddress: record?.remoteAddress
                    ?? cmhd_connection_client_address(connection).map(ListenAddress.numericHost) ?? "",
                connection: record)
            requestSlot.pointee = Unmanaged.passRetained(context).toOpaque()
            activity.requestStarted()
            // Answered 408 already (the headers arrived as the deadline passed): drop the request.
            if let record, !record.headersArrived() { return .NO }
            let fields = Self.headerFields(on: connection)
            context.headers = HTTPHeaders(fields.fields)
            if let (status, problem) = refusal(of: context, headerBytes: fields.bytes + context.path.utf8.count + context.method.utf8.count + 12) {
                // Not read on: the connection cannot carry another request.
                context.connection?.lingerOnClose()
                return queue(configuration.errorBody(status, problem), for: context, on: connection, closingConnection: true)
            }
            return checkDeclaredLength(of: context, on: connection)
        }
        let context = Unmanaged<RequestContext>.fromOpaque(slot).takeUnretainedValue()
        let received = uploadDataSize.pointee
        if received > 0 {
            uploadDataSize.pointee = 0
            if context.responded { return .YES }
            if context.body.count + received > configuration.maxRequestBodyBytes {
                return refuseChunkedBody(of: context, size: context.body.count + received)
            }
            if let uploadData {
                UnsafeRawBufferPointer(start: uploadData, count: received).withMemoryRebound(to: UInt8.self) {
                    context.body.append(contentsOf: $0)
                }
            }
            return .YES
        }
        if let deferred = context.deferred {
            // Called again after the deferred reply resumed the connection (or spuriously: then park again).
            guard let response = deferred.responseOrSuspend(connection) else { return .YES }
            context.deferred = nil
            activity.unpark(deferred)
            return queue(response, for: context, on: connection, closingConnection: false)
        }
        if context.responded { return .YES }
        if let record = context.connection, !record.requestComplete() { return .NO }  // answered 408 meanwhile
        return answer(context, on: connection)
    }

    /// Why a request is refused from its header fields alone, if it is: header fields over the
    /// limit (431); no `Host` in HTTP/1.1, or more than one; more than one `Authorization`; or
    /// `Content-Length` values that differ (400). The last three are how requests are smuggled
    /// past a proxy that reads the other field than this server does.
    private func refusal(of context: RequestContext, headerBytes: Int) -> (Int, String)? {
        if headerBytes > configuration.maxHeaderBytes {
            return (431, "\(headerBytes) bytes of request line and header fields; the limit is \(configuration.maxHeaderBytes) bytes")
        }
        // One pass, without allocating, for the usual request: one Host, at most one of the others.
        var hosts = 0, authorizations = 0, lengths = 0
        var lengthIsList = false
        for field in context.headers {
            if HTTPHeaders.sameName(field.name, "Host") { hosts += 1 }
            else if HTTPHeaders.sameName(field.name, "Authorization") { authorizations += 1 }
            else if HTTPHeaders.sameName(field.name, "Content-Length") {
                lengths += 1
                if field.value.utf8.contains(UInt8(ascii: ",")) { lengthIsList = true }
            }
        }
        if hosts == 0 && context.httpVersion == "HTTP/1.1" {
            return (400, "an HTTP/1.1 request without a Host header field")
        }
        if hosts > 1 { return (400, "\(hosts) Host header fields; send one") }
        if authorizations > 1 { return (400, "\(authorizations) Authorization fields; send one") }
        if lengths > 1 || lengthIsList {
            let values = Set(context.headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) })
            if values.count > 1 { return (400, "different Content-Length values (\(values.sorted().joined(separator: ", ")))") }
        }
        return nil
    }

    /// A body without `Content-Length` (chunked) went over the limit: answered 413 at once, and
    /// no more of it is read. libmicrohttpd 0.9.75 cannot queue a response while a body is
    /// arriving, so the answer is written straight to the socket (libmicrohttpd has written nothing
    /// on it for this request) and the connection is ended; it closes lingering (`LingeringClose`),
    /// so a client still sending reads the 413 instead of a reset.
    private func refuseChunkedBody(of context: RequestContext, size: Int) -> MHD_Result {
        context.body = []
        guard let record = context.connection else { return .NO }
        let error = FleetError(.requestBodyTooLarge,
                               detail: "\(size) bytes so far of a chunked body; the limit is \(configuration.maxRequestBodyBytes) bytes")
        let response = configuration.errorBody(413, error.message)
        context.responded = true
        context.status = 413
        context.responseBytes = response.body.count
        record.answerWhileReadingBody(response.serialized(status: 413, closing: true))
        return .NO
    }

    /// Refuses a body whose `Content-Length` is over the limit at once, before it is read; the
    /// connection then closes lingering (`LingeringClose`), so a client still sending reads the 413.
    private func checkDeclaredLength(of context: RequestContext, on connection: OpaquePointer) -> MHD_Result {
        guard let declared = context.headers.first(where: { HTTPHeaders.sameName($0.name, "Content-Length") }),
              let length = Int(declared.value) else { return .YES }
        if length > configuration.maxRequestBodyBytes {
            return rejectBody(of: context, on: connection, size: "\(length)")
        }
        context.body.reserveCapacity(length)
        return .YES
    }

    private func rejectBody(of context: RequestContext, on connection: OpaquePointer, size: String) -> MHD_Result {
        let error = FleetError(.requestBodyTooLarge,
                               detail: "\(size) bytes; the limit is \(configuration.maxRequestBodyBytes) bytes")
        let response = configuration.errorBody(413, error.message)
        // The rest of the body is not read, so the connection cannot carry another request; it is
        // closed lingering, so that a client still sending the body reads the answer.
        context.connection?.lingerOnClose()
        return queue(response, for: context, on: connection, closingConnection: true)
    }

    /// The last call: the request is complete. Runs the handler and queues its reply.
    private func answer(_ context: RequestContext, on connection: OpaquePointer) -> MHD_Result {
        let request = HTTPRequest(
            method: context.method, path: context.path,
            query: Self.queryItems(on: connection),
            headers: context.headers,
            body: context.body, remoteAddress: context.remoteAddress, httpVersion: context.httpVersion)
        context.body = []
        switch handler(request) {
        case .response(let response):
            return queue(response, for: context, on: connection, closingConnection: false)
        case .deferred(let deferred):
            guard let response = deferred.responseOrSuspend(connection) else {
                context.deferred = deferred
                activity.park(deferred)
                return .YES
            }
            return queue(response, for: context, on: connection, closingConnection: false)
        case .eventStream(let stream):
            return queue(stream, for: context, on: connection)
        }
    }

    // MARK: Queuing replies

    private func queue(_ response: HTTPResponse, for context: RequestContext, on connection: OpaquePointer,
                       closingConnection: Bool) -> MHD_Result {
        context.responded = true
        let status = (100...999).contains(response.status) ? response.status : 500
        if status != response.status { configuration.diagnostics("handler returned status \(response.status); sent 500") }
        let created = response.body.withUnsafeBytes { bytes in
            // MUST_COPY: libmicrohttpd keeps its own copy; the Swift array may go away at once.
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        addHeaders(response.headers, to: mhdResponse, closingConnection: closingConnection)
        context.status = status
        context.responseBytes = context.method == "HEAD" ? 0 : response.body.count  // HEAD: libmicrohttpd sends no body
        return MHD_queue_response(connection, UInt32(status), mhdResponse)
    }

    private func queue(_ stream: EventStream, for context: RequestContext, on connection: OpaquePointer) -> MHD_Result {
        context.responded = true
        guard stream.attach(to: connection) else {
            configuration.diagnostics("an EventStream was returned for a second request; sent 500")
            return queue(configuration.errorBody(500, "The event stream is already in use"), for: context,
                         on: connection, closingConnection: false)
        }
        switch activity.addStream(stream, client: context.remoteAddress, maxStreams: configuration.maxEventStreams,
                                  maxPerClient: configuration.maxEventStreamsPerClient) {
        case .added:
            break
        case .stopping:
            stream.refuse()
            return queue(configuration.errorBody(503, "The server is stopping"), for: context, on: connection,
                         closingConnection: true)
        case .serverLimit:
            stream.refuse()
            let limit = configuration.maxEventStreams ?? 0
            return queue(configuration.errorBody(429, "Too many event streams are open: the server allows \(limit)"),
                         for: context, on: connection, closingConnection: false)
        case .clientLimit:
            stream.refuse()
            let limit = configuration.maxEventStreamsPerClient ?? 0
            return queue(configuration.errorBody(429, "Too many event streams are open from \(context.remoteAddress): the server allows \(limit) per client address"),
                         for: context, on: connection, closingConnection: false)
        }
        context.stream = stream
        context.connection?.streamStarted(stream)
        activity.requestEnded()  // From now on it counts as a stream, not as a request in flight.
        let stopping = isStopping.load(ordering: .relaxed)
        // The reader holds the stream until libmicrohttpd frees the response (`releaseEventStream`).
        let retained = Unmanaged.passRetained(stream)
        let created = MHD_create_response_from_callback(
            UInt64.max, 16 * 1024, MicroHTTPDCallbacks.readEventStream,
            retained.toOpaque(), MicroHTTPDCallbacks.releaseEventStream)
        guard let mhdResponse = created else {
            retained.release()
            return .NO
        }
        defer { MHD_destroy_response(mhdResponse) }
        var headers: HTTPHeaders = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
                                    ("X-Accel-Buffering", "no")]
        for field in stream.headers { headers.add(name: field.name, value: field.value) }
        addHeaders(headers, to: mhdResponse, closingConnection: stopping)
        context.status = 200
        return MHD_queue_response(connection, 200, mhdResponse)
    }

    private func addHeaders(_ headers: HTTPHeaders, to response: OpaquePointer, closingConnection: Bool) {
        for field in headers {
            if HTTPHeaders.sameName(field.name, "Content-Length") || HTTPHeaders.sameName(field.name, "Transfer-Encoding") {
                continue
            }
            if MHD_add_response_header(response, field.name, field.value) != .YES {
                configuration.diagnostics("header field '\(field.name)' was refused (line breaks or spaces in it?)")
            }
        }
        if closingConnection || isStopping.load(ordering: .relaxed) {
            _ = MHD_add_response_header(response, "Connection", "close")
        }
    }

    // MARK: libmicrohttpd's completion callback

    /// The request is over (sent, failed or abandoned): log it and release its context.
    func completed(_ context: RequestContext, termination: MHD_RequestTerminationCode) {
        let outcome: HTTPAccessLogEntry.Outcome = switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: .completed
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: .timedOut
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: .serverStopped
        default: .clientClosed
        }
        var bodyBytes = context.responseBytes
        if let stream = context.stream {
            bodyBytes = stream.bytesWritten
            activity.removeStream(stream, client: context.remoteAddress)
            stream.finish(connectionOutcome: outcome == .serverStopped ? .serverStopping : .clientDisconnected)
        } else {
            activity.requestEnded()
        }
        if let deferred = context.deferred {
            // Ended before its answer was sent (see `DeferredReply.divert(to:)`): unless the server
            // is stopping, the answer is written to the socket directly once it is ready.
            context.deferred = nil
            activity.unpark(deferred)
            if outcome != .serverStopped, let record = context.connection {
                let copy = dup(record.descriptor)
                if copy >= 0 {
                    let method = context.method
                    deferred.divert { response in DirectReply.send(response, method: method, on: copy) }
                }
            }
        }
        context.connection?.exchangeEnded()
        let elapsed = context.started.duration(to: .now)
        configuration.accessLog(HTTPAccessLogEntry(
            method: context.method, path: context.path, status: context.status,
            durationMilliseconds: elapsed / .milliseconds(1),
            bodyBytes: bodyBytes, remoteAddress: context.remoteAddress, outcome: outcome))
    }

    // MARK: Reading request values

    /// The header fields libmicrohttpd parsed, in order, and their size in bytes as sent (without
    /// line ends), as `collectHeaderField` gathers them.
    struct HeaderFields {
        var fields: [HTTPHeaders.Field] = []
        var bytes = 0
    }

    private static func headerFields(on connection: OpaquePointer) -> HeaderFields {
        var collected = HeaderFields()
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, MicroHTTPDCallbacks.collectHeaderField, pointer)
        }
        return collected
    }

    /// The query items libmicrohttpd parsed, in order, as `collectQueryItem` decodes them.
    private static func queryItems(on connection: OpaquePointer) -> [HTTPQueryItem] {
        var items: [HTTPQueryItem] = []
        withUnsafeMutablePointer(to: &items) { pointer in
            _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, MicroHTTPDCallbacks.collectQueryItem, pointer)
        }
        return items
    }

    /// Appends one header field to the `HeaderFields` at `target`, its bytes made text straight
    /// from libmicrohttpd's buffer (bytes that are not UTF-8 become U+FFFD).
    static func collectHeaderField(into target: UnsafeMutableRawPointer, name: UnsafePointer<CChar>?, nameSize: Int,
                                   value: UnsafePointer<CChar>?, valueSize: Int) {
        let fields = target.assumingMemoryBound(to: HeaderFields.self)
        fields.pointee.fields.append(HTTPHeaders.Field(name: text(name, nameSize), value: text(value, valueSize)))
        fields.pointee.bytes += nameSize + valueSize + 4
    }

    /// Appends one query item to the `[HTTPQueryItem]` at `target`, decoded (see `decodeQueryText`).
    static func collectQueryItem(into target: UnsafeMutableRawPointer, name: UnsafePointer<CChar>?, nameSize: Int,
                                 value: UnsafePointer<CChar>?, valueSize: Int) {
        let name = decodeQueryText(bytes(name, nameSize)), value = decodeQueryText(bytes(value, valueSize))
        target.assumingMemoryBound(to: [HTTPQueryItem].self).pointee.append(
            HTTPQueryItem(name: name.text, value: value.text, isValidUTF8: name.isValidUTF8 && value.isValidUTF8))
    }

    private static func bytes(_ text: UnsafePointer<CChar>?, _ count: Int) -> UnsafeRawBufferPointer {
        guard let text, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: text, count: count)
    }

    private static func text(_ text: UnsafePointer<CChar>?, _ count: Int) -> String {
        String(decoding: bytes(text, count), as: UTF8.self)
    }

    /// Query text as libmicrohttpd leaves it (`+` already a space, escapes kept), decoded; bytes that
    /// are not UTF-8 become U+FFFD and are reported, for the handler to refuse. Text without `%`
    /// (the usual `updateMask=lastLocation`) is taken as it is.
    private static func decodeQueryText(_ raw: UnsafeRawBufferPointer) -> (text: String, isValidUTF8: Bool) {
        if !raw.contains(UInt8(ascii: "%")) {
            if let text = String(validating: raw, as: UTF8.self) { return (text, true) }
            return (String(decoding: raw, as: UTF8.self), false)
        }
        let bytes = PercentEncoding.lenient(raw)
        if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
        return (String(decoding: bytes, as: UTF8.self), false)
    }
}
