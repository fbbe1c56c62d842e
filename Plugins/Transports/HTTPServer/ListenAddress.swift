import FleetErrors
import Glibc

/// The socket address a server binds to, parsed from a host literal and a port.
struct ListenAddress {
    /// The host as an IP literal, without brackets.
    let host: String
    let isIPv6: Bool
    /// The address, ready for bind(2).
    let socketAddress: sockaddr_storage

    /// Parses `host` (IPv4 or IPv6 literal, brackets allowed, or `localhost`) and `port` (0–65535).
    init(host: String, port: Int) throws(FleetError) {
        guard (0...65535).contains(port) else {
            throw FleetError(.badListenAddress, detail: "port \(port) is not between 0 and 65535", field: "port")
        }
        var literal = host == "localhost" ? "127.0.0.1" : host
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var storage = sockaddr_storage()
        let networkPort = in_port_t(port).bigEndian
        let parsedIPv4 = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = networkPort
                return inet_pton(AF_INET, literal, &address.pointee.sin_addr) == 1
            }
        }
        if parsedIPv4 {
            self.host = literal
            isIPv6 = false
            socketAddress = storage
            return
        }
        storage = sockaddr_storage()
        let parsedIPv6 = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = networkPort
                return inet_pton(AF_INET6, literal, &address.pointee.sin6_addr) == 1
            }
        }
        guard parsedIPv6 else {
            throw FleetError(.badListenAddress, detail: "'\(host)' is not an IP address or localhost", field: "host")
        }
        self.host = literal
        isIPv6 = true
        socketAddress = storage
    }

    /// The numeric host of a socket address (`127.0.0.1`, `::1`), empty for other families.
    static func numericHost(of address: UnsafePointer<sockaddr>) -> String {
        // Written into a buffer on the stack: this runs for every request.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { text -> String in
            let converted: UnsafePointer<CChar>? = switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, text.baseAddress, socklen_t(text.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, text.baseAddress, socklen_t(text.count))
                }
            default:
                nil
            }
            return converted.map { String(cString: $0) } ?? ""
        }
    }
}
