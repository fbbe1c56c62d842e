import CCurl
import FleetErrors
import FleetConcurrency

/// How a transfer ended when it did not fail.
enum CurlTransferOutcome {
    /// The response is complete; the context holds its headers and body.
    case completed(status: Int)
    /// The event handler returned `.stop`.
    case stoppedByHandler
    /// The caller's `Cancellation` was cancelled.
    case cancelled
}

/// One request run on one easy handle: sets every option from the request and the client's
/// configuration, performs it on the calling thread, and turns libcurl's result into an outcome or a `FleetError`.
struct CurlTransfer {
    let request: HTTPClientRequest
    let configuration: HTTPClientConfiguration
    /// The whole call's limit; nil for none.
    let timeout: Duration?
    /// Whether the body is an event stream (adds `Accept: text/event-stream`).
    let isEventStream: Bool

    /// Runs the transfer; transport failures are thrown.
    func run(on handle: CurlEasyHandle, context: TransferContext, cancellation: Cancellation?) throws -> CurlTransferOutcome {
        if cancellation?.isCancelled == true { return .cancelled }
        let headerLines = try Self.headerLines(for: request, isEventStream: isEventStream)
        try handle.reset()
        try setCommonOptions(on: handle)
        let headerList = CurlHeaderList()
        for line in headerLines { try headerList.append(line) }
        try handle.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headerList.head))
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        try handle.installCallbacks(context: contextPointer)

        let clock = ContinuousClock()
        let start = clock.now
        let code: CURLcode = try withExtendedLifetime((context, headerList)) {
            guard let body = Self.bodyToSend(for: request) else {
                try setMethod(on: handle, bodyPointer: nil, bodyCount: 0)
                return handle.perform()
            }
            // libcurl reads POSTFIELDS in place during the transfer; it must never be NULL (NULL reads stdin).
            let bytes = body.isEmpty ? [0] : body
            return try bytes.withUnsafeBufferPointer { buffer in
                try setMethod(on: handle, bodyPointer: UnsafeMutableRawPointer(mutating: buffer.baseAddress), bodyCount: body.count)
                return handle.perform()
            }
        }
        let elapsed = start.duration(to: clock.now)

        if context.abortedByCancellation { return .cancelled }
        if context.abortedByStall, let stallTimeout = context.stallTimeout {
            throw FleetError(.serverStalled, detail: "\(request.method) \(request.url): nothing received for \(stallTimeout)")
        }
        if context.stoppedByHandler { return .stoppedByHandler }
        guard code == CURLE_OK else {
            throw CurlFailure(code: code, text: handle.errorText(for: code), request: request,
                              requestSent: context.requestSent,
                              deadlinePassed: timeout.map { elapsed >= $0 } ?? false).error
        }
        return .completed(status: handle.responseStatus())
    }

    private func setCommonOptions(on handle: CurlEasyHandle) throws {
        try handle.set(CURLOPT_URL, request.url)
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_FOLLOWLOCATION, 0)
        try handle.set(CURLOPT_TCP_KEEPALIVE, 1)
        try handle.set(CURLOPT_TCP_KEEPIDLE, 30)
        try handle.set(CURLOPT_TCP_KEEPINTVL, 15)
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
        try handle.set(CURLOPT_TIMEOUT_MS, timeout.map(Self.milliseconds) ?? 0)
        try handle.set(CURLOPT_USERAGENT, configuration.userAgent)
        try handle.set(CURLOPT_SSL_VERIFYPEER, configuration.tls.verifyPeer ? 1 : 0)
        try handle.set(CURLOPT_SSL_VERIFYHOST, configuration.tls.verifyHost ? 2 : 0)
        if let caBundlePath = configuration.tls.caBundlePath { try handle.set(CURLOPT_CAINFO, caBundlePath) }
        if configuration.acceptsCompressedResponses { try handle.set(CURLOPT_ACCEPT_ENCODING, "") }
    }

    private func setMethod(on handle: CurlEasyHandle, bodyPointer: UnsafeMutableRawPointer?, bodyCount: Int) throws {
        let method = request.method
        if let bodyPointer {
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(bodyCount))
            try handle.set(CURLOPT_POSTFIELDS, pointer: bodyPointer)
            if method != .post { try handle.set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        } else if method == .head {
            try handle.set(CURLOPT_NOBODY, 1)
        } else if method == .get {
            try handle.set(CURLOPT_HTTPGET, 1)
        } else {
            try handle.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
    }

    /// The body to send: the request's, or an empty one for methods that always carry a body.
    private static func bodyToSend(for request: HTTPClientRequest) -> [UInt8]? {
        if let body = request.body { return body }
        return [.post, .put, .patch].contains(request.method) ? [] : nil
    }

    /// The header lines for libcurl, after checking every name and value.
    static func headerLines(for request: HTTPClientRequest, isEventStream: Bool) throws -> [String] {
        var lines: [String] = []
        for (name, value) in request.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                throw FleetError(.invalidHTTPRequest, detail: "header name '\(name)' is not an HTTP token", field: "headers")
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw FleetError(.invalidHTTPRequest, detail: "the value of header '\(name)' contains a line break", field: "headers")
            }
            // "Name:" would make libcurl drop the header; "Name;" sends it with an empty value.
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        if bodyToSend(for: request) != nil {
            lines.append("Expect:")  // no 100-continue round trip before the body
            if request.header("Content-Type") == nil { lines.append("Content-Type:") }  // not libcurl's form type
        }
        if isEventStream, request.header("Accept") == nil { lines.append("Accept: text/event-stream") }
        return lines
    }

    /// `tchar` of RFC 9110: the bytes allowed in a header name.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// A duration in whole milliseconds, rounded up, at least 1 for any positive duration.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, duration > .zero else { return 0 }
        let millis = seconds.multipliedReportingOverflow(by: 1000)
        guard !millis.overflow else { return Int.max }
        let fraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(millis.partialValue) + Int(fraction)
    }
}
