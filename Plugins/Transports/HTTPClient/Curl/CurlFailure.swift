import CCurl
import FleetErrors

/// A failed libcurl transfer, classified into the `FleetError` a caller can act on.
///
/// Network trouble before the request was sent is UNAVAILABLE and safe to retry; after sending it is
/// still UNAVAILABLE but the server may have applied the call (`connectionLost`); an expired time limit
/// is DEADLINE_EXCEEDED. (A stalled stream is detected by `TransferContext`, not by libcurl.)
struct CurlFailure {
    /// libcurl's result.
    let code: CURLcode
    /// libcurl's message (error buffer, or its generic text).
    let text: String
    /// The request that failed, named in the message.
    let request: HTTPClientRequest
    /// Whether a connection was made and the request started.
    let requestSent: Bool
    /// Whether the call's own time limit had passed when libcurl gave up.
    let deadlinePassed: Bool

    /// The error to throw.
    var error: FleetError {
        FleetError(cause, detail: "\(request.method) \(request.url): \(text)")
    }

    /// The catalogue cause of this failure.
    var cause: ErrorCause {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidHTTPRequest
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return .serverUnreachable
        case CURLE_OPERATION_TIMEDOUT:
            // Before sending, either the call's deadline or the (shorter) connect timeout expired.
            if !requestSent { return deadlinePassed ? .deadlineExceededWhileConnecting : .serverUnreachable }
            return .callDeadlineExceeded
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_CLIENTCERT:
            return requestSent ? .connectionLost : .tlsHandshakeFailed
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_WEIRD_SERVER_REPLY,
             CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR:
            return requestSent ? .connectionLost : .serverUnreachable
        default:
            return .httpTransportFailure
        }
    }
}
