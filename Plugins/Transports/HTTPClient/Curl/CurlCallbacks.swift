import CCurl

// libcurl's callbacks, as plain C functions: no captures and no actor isolation, so libcurl may call
// them from the transferring thread. Each receives the `TransferContext` as an unretained pointer.

/// The value that makes libcurl abort a transfer from a write or header callback (`CURL_WRITEFUNC_ERROR`).
private let abortTransfer = Int(0xFFFF_FFFF)

/// `CURLOPT_WRITEFUNCTION`: a chunk of body.
func curlWriteCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userData: UnsafeMutableRawPointer?) -> Int {
    guard let userData else { return abortTransfer }
    let context = Unmanaged<TransferContext>.fromOpaque(userData).takeUnretainedValue()
    let length = size * count
    let chunk = UnsafeRawBufferPointer(start: data.map(UnsafeRawPointer.init), count: data == nil ? 0 : length)
    return context.receiveBody(chunk) ? length : abortTransfer
}

/// `CURLOPT_HEADERFUNCTION`: one header line.
func curlHeaderCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userData: UnsafeMutableRawPointer?) -> Int {
    guard let userData else { return abortTransfer }
    let context = Unmanaged<TransferContext>.fromOpaque(userData).takeUnretainedValue()
    let length = size * count
    context.receiveHeaderLine(UnsafeRawBufferPointer(start: data.map(UnsafeRawPointer.init), count: data == nil ? 0 : length))
    return length
}

/// `CURLOPT_XFERINFOFUNCTION`: called often while data flows and about once a second when idle.
func curlProgressCallback(_ userData: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                          _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    guard let userData else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userData).takeUnretainedValue()
    return context.shouldAbort() ? 1 : 0
}

/// `CURLOPT_PREREQFUNCTION`: a connection is established or reused and the request goes next.
func curlPreRequestCallback(_ userData: UnsafeMutableRawPointer?, _ primaryIP: UnsafeMutablePointer<CChar>?,
                            _ localIP: UnsafeMutablePointer<CChar>?, _ primaryPort: Int32, _ localPort: Int32) -> Int32 {
    if let userData {
        Unmanaged<TransferContext>.fromOpaque(userData).takeUnretainedValue().markRequestSent()
    }
    return Int32(CURL_PREREQFUNC_OK)
}
