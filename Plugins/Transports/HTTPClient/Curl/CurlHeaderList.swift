import CCurl
import FleetErrors

/// A `curl_slist` of request header lines for `CURLOPT_HTTPHEADER`, freed with the object.
final class CurlHeaderList {
    /// The list's head, nil while empty.
    private(set) var head: UnsafeMutablePointer<curl_slist>?

    /// An empty list.
    init() {}

    deinit { curl_slist_free_all(head) }

    /// Appends one line (`Name: value`, or `Name:` to suppress a header libcurl would add).
    func append(_ line: String) throws {
        guard let grown = curl_slist_append(head, line) else {
            throw FleetError(.httpTransportFailure, detail: "curl_slist_append failed (out of memory)")
        }
        head = grown
    }
}
