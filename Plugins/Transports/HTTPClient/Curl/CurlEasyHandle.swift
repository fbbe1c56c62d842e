import CCurl
import CCurlShim
import FleetErrors

/// One libcurl easy handle with its error buffer. It keeps its own cache of keep-alive connections,
/// so reusing the handle reuses connections.
///
/// Not thread-safe: `EasyHandlePool` lends a handle to one thread at a time.
final class CurlEasyHandle: @unchecked Sendable {  // exclusive use is guaranteed by EasyHandlePool
    /// The `CURL *`.
    let pointer: UnsafeMutableRawPointer
    private let share: CurlShare
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A new handle attached to `share`.
    init(share: CurlShare) throws {
        guard let pointer = curl_easy_init() else {
            throw FleetError(.httpTransportFailure, detail: "curl_easy_init returned no handle")
        }
        self.pointer = pointer
        self.share = share
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(pointer)
        errorBuffer.deallocate()
    }

    /// Clears every option of the previous call (keeping live connections and caches), then attaches
    /// the share and the error buffer again.
    func reset() throws {
        curl_easy_reset(pointer)
        errorBuffer[0] = 0
        try set(CURLOPT_SHARE, pointer: share.pointer)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    /// Sets a `long` option.
    func set(_ option: CURLoption, _ value: Int) throws {
        try check(ccurl_setopt_long(pointer, option, value), option)
    }

    /// Sets a `curl_off_t` option.
    func set(_ option: CURLoption, offset value: Int64) throws {
        try check(ccurl_setopt_off_t(pointer, option, curl_off_t(value)), option)
    }

    /// Sets a string option (libcurl copies the string).
    func set(_ option: CURLoption, _ value: String) throws {
        try check(value.withCString { ccurl_setopt_string(pointer, option, $0) }, option)
    }

    /// Sets a pointer option; the memory must outlive the transfer.
    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws {
        try check(ccurl_setopt_pointer(pointer, option, value), option)
    }

    /// Installs the write, header, progress and pre-request callbacks, all receiving `context`.
    func installCallbacks(context: UnsafeMutableRawPointer) throws {
        try check(ccurl_setopt_write_function(pointer, curlWriteCallback), CURLOPT_WRITEFUNCTION)
        try set(CURLOPT_WRITEDATA, pointer: context)
        try check(ccurl_setopt_header_function(pointer, curlHeaderCallback), CURLOPT_HEADERFUNCTION)
        try set(CURLOPT_HEADERDATA, pointer: context)
        try check(ccurl_setopt_xferinfo_function(pointer, curlProgressCallback), CURLOPT_XFERINFOFUNCTION)
        try set(CURLOPT_XFERINFODATA, pointer: context)
        try set(CURLOPT_NOPROGRESS, 0)
        try check(ccurl_setopt_prereq_function(pointer, curlPreRequestCallback), CURLOPT_PREREQFUNCTION)
        try set(CURLOPT_PREREQDATA, pointer: context)
    }

    /// Runs the transfer on the calling thread.
    func perform() -> CURLcode {
        errorBuffer[0] = 0
        return curl_easy_perform(pointer)
    }

    /// The status of the last response received (0 before any).
    func responseStatus() -> Int {
        var status = 0
        _ = ccurl_getinfo_long(pointer, CURLINFO_RESPONSE_CODE, &status)
        return status
    }

    /// libcurl's detailed message for the last failure, or its generic text for `code`.
    func errorText(for code: CURLcode) -> String {
        let detailed = String(cString: errorBuffer).trimmingSuffix("\n")
        return detailed.isEmpty ? String(cString: curl_easy_strerror(code)) : detailed
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws {
        guard code == CURLE_OK else {
            throw FleetError(.httpTransportFailure,
                             detail: "setting option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
        }
    }
}

private extension String {
    func trimmingSuffix(_ suffix: Character) -> String {
        var text = self
        while text.last == suffix { text.removeLast() }
        return text
    }
}
