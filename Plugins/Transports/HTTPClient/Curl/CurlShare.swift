import CCurl
import CCurlShim
import FleetErrors
import Glibc

/// A libcurl share object holding the DNS cache and the TLS session cache of one client, so that
/// every handle of the client reuses lookups and resumes TLS sessions.
///
/// The connection cache is deliberately not shared: libcurl documents a shared connection cache as
/// unsafe across concurrent threads (known bug 11.11); each easy handle keeps its own connections instead.
/// libcurl calls the lock callbacks from whichever thread uses a handle, so each kind of shared data
/// has its own pthread mutex.
///
/// These mutexes are pthread's own, not FleetConcurrency's `Lock` (the house's lock everywhere else):
/// libcurl locks and unlocks in two separate C callbacks (`@convention(c)` functions, which capture
/// nothing), handing each only the raw user pointer given to `CURLSHOPT_USERDATA` and the kind of
/// data. A plain C array of `pthread_mutex_t`, indexed by that kind, is what such a pointer can carry
/// without a Swift object to retain, release or look up inside a callback libcurl runs mid-transfer.
final class CurlShare: @unchecked Sendable {  // the mutexes below guard everything libcurl touches
    /// The `CURLSH *` to pass as `CURLOPT_SHARE`.
    let pointer: UnsafeMutableRawPointer
    private let mutexes: UnsafeMutablePointer<pthread_mutex_t>
    private let mutexCount = Int(CURL_LOCK_DATA_LAST.rawValue)

    /// A share of DNS and TLS sessions, with its locks installed.
    init() throws {
        try CurlGlobal.ensureInitialized()
        guard let pointer = curl_share_init() else {
            throw FleetError(.httpTransportFailure, detail: "curl_share_init returned no share")
        }
        self.pointer = pointer
        mutexes = .allocate(capacity: mutexCount)
        for index in 0..<mutexCount { pthread_mutex_init(mutexes + index, nil) }
        try check(ccurl_share_setopt_pointer(pointer, CURLSHOPT_USERDATA, UnsafeMutableRawPointer(mutexes)), "CURLSHOPT_USERDATA")
        try check(ccurl_share_setopt_lock_function(pointer, lockSharedData), "CURLSHOPT_LOCKFUNC")
        try check(ccurl_share_setopt_unlock_function(pointer, unlockSharedData), "CURLSHOPT_UNLOCKFUNC")
        try check(ccurl_share_setopt_long(pointer, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue)), "sharing DNS")
        try check(ccurl_share_setopt_long(pointer, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue)), "sharing TLS sessions")
    }

    deinit {
        curl_share_cleanup(pointer)
        for index in 0..<mutexCount { pthread_mutex_destroy(mutexes + index) }
        mutexes.deallocate()
    }

    private func check(_ code: CURLSHcode, _ what: String) throws {
        guard code == CURLSHE_OK else {
            throw FleetError(.httpTransportFailure, detail: "\(what): \(String(cString: curl_share_strerror(code)))")
        }
    }
}

/// `CURLSHOPT_LOCKFUNC`: locks the mutex of the kind of data libcurl is about to touch.
private func lockSharedData(_ handle: UnsafeMutableRawPointer?, _ data: curl_lock_data,
                            _ access: curl_lock_access, _ mutexes: UnsafeMutableRawPointer?) {
    guard let mutexes else { return }
    pthread_mutex_lock(mutexes.assumingMemoryBound(to: pthread_mutex_t.self) + Int(data.rawValue))
}

/// `CURLSHOPT_UNLOCKFUNC`: unlocks the mutex locked by `lockSharedData`.
private func unlockSharedData(_ handle: UnsafeMutableRawPointer?, _ data: curl_lock_data, _ mutexes: UnsafeMutableRawPointer?) {
    guard let mutexes else { return }
    pthread_mutex_unlock(mutexes.assumingMemoryBound(to: pthread_mutex_t.self) + Int(data.rawValue))
}
