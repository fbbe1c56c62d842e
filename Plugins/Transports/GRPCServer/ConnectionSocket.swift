import Foundation

/// Closes one of the core's connections from outside the core. gRPC 1.51's C API can end a call but
/// not the connection it came on, and the core reads a connection as fast as it can, making a call
/// for every new stream before a serving thread sees it: to stop a client that floods streams
/// without acknowledging `SETTINGS_MAX_CONCURRENT_STREAMS`, the server shuts down the connection's
/// socket itself. The core then reads the end of the stream, fails the connection, and frees every
/// call and stream it held for it.
enum ConnectionSocket {
    /// Shuts down the server's socket whose peer is `peer` (the core's name for it, as
    /// `grpc_call_get_peer` gives it: `ipv4:127.0.0.1:40312`, `ipv6:%5B::1%5D:40312`) and whose
    /// local port is `localPort`, and discards what the client had sent that the core has not read
    /// yet (up to the socket's receive buffer, all streams the core would otherwise still turn into
    /// calls). False when no such socket is open.
    ///
    /// The socket is found among the process's descriptors (`/proc/self/fd`) and checked and shut
    /// down through a duplicate of its own, so a descriptor the core closes and reuses meanwhile is
    /// never touched. Once shut down both ways, data the client still sends is answered with a TCP
    /// reset instead of being queued.
    static func shutDown(peer: String, localPort: Int) -> Bool {
        guard let wanted = Address(peer: peer),
              let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return false }
        for entry in entries {
            guard let descriptor = Int32(entry) else { continue }
            let own = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard own >= 0 else { continue }
            defer { close(own) }
            guard Address(local: own)?.port == localPort, Address(remote: own) == wanted else { continue }
            shutdown(own, Int32(SHUT_RDWR))
            discardUnread(own)
            return true
        }
        return false
    }

    /// Reads and drops what the socket holds unread, at most 64 MiB (more than any receive buffer).
    private static func discardUnread(_ socket: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var discarded = 0
        while discarded < 64 << 20 {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return }
            discarded += count
        }
    }

    /// An IP address and port, IPv4-mapped IPv6 addresses as IPv4 (as the core names its peers).
    struct Address: Equatable {
        /// 4 or 16 bytes.
        var ip: [UInt8]
        var port: Int

        /// From the core's peer name: `ipv4:HOST:PORT` or `ipv6:[HOST]:PORT` (see
        /// `GRPCRequest.peerAddress`); an IPv6 scope is not compared.
        init?(peer: String) {
            guard peer.hasPrefix("ipv4:") || peer.hasPrefix("ipv6:") else { return nil }
            let address = GRPCRequest.address(ofPeer: peer)
            guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else { return nil }
            var host = address[..<colon]
            if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
            if let percent = host.firstIndex(of: "%") { host = host[..<percent] }
            var v4 = in_addr(), v6 = in6_addr()
            if inet_pton(AF_INET, String(host), &v4) == 1 {
                ip = withUnsafeBytes(of: v4) { Array($0) }
            } else if inet_pton(AF_INET6, String(host), &v6) == 1 {
                ip = withUnsafeBytes(of: v6) { Array($0) }
            } else {
                return nil
            }
            self.port = port
            normalize()
        }

        /// The socket's own address (`getsockname`).
        init?(local socket: Int32) {
            self.init(socket, getsockname)
        }

        /// The socket's peer (`getpeername`).
        init?(remote socket: Int32) {
            self.init(socket, getpeername)
        }

        private init?(_ socket: Int32, _ read: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let status = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { read(socket, $0, &length) }
            }
            guard status == 0 else { return nil }
            switch Int32(storage.ss_family) {
            case AF_INET:
                let address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
                ip = withUnsafeBytes(of: address.sin_addr) { Array($0) }
                port = Int(UInt16(bigEndian: address.sin_port))
            case AF_INET6:
                let address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
                ip = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                port = Int(UInt16(bigEndian: address.sin6_port))
            default:
                return nil
            }
            normalize()
        }

        /// `::ffff:a.b.c.d` as `a.b.c.d`.
        private mutating func normalize() {
            if ip.count == 16, ip[0..<10].allSatisfy({ $0 == 0 }), ip[10] == 0xff, ip[11] == 0xff { ip = Array(ip[12...]) }
        }
    }
}
