import CCurl
import FleetErrors

/// libcurl's process-wide initialisation, which must run once before any handle is made.
enum CurlGlobal {
    /// The result of `curl_global_init`; Swift runs a static's initialiser exactly once, thread-safely.
    private static let initialization: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// Initialises libcurl on first call; throws if that failed.
    static func ensureInitialized() throws {
        let code = initialization
        guard code == CURLE_OK else {
            throw FleetError(.httpTransportFailure, detail: "curl_global_init: \(String(cString: curl_easy_strerror(code)))")
        }
    }
}
