import FleetAuth
import FleetErrors
import Foundation
import Glibc
import HTTPServer

/// The checks a request passes before it reaches the engine, besides its token: the caller's
/// request rate, that a body is labelled JSON, and, while tokens are not checked, that the request
/// names a host this server answers for.
///
/// The last two stop web pages from driving a server that trusts every caller: a browser sends a
/// cross-origin POST labelled `text/plain` without asking first (no CORS preflight), and a page
/// whose own domain is rebound to 127.0.0.1 (DNS rebinding) reaches the server with its own name
/// in `Host`.
public struct RequestGuard: Sendable {
    /// The request-rate limit, nil for none.
    public var rateLimiter: RateLimiter?
    /// Host names answered while tokens are not checked, besides loopback names and the listen
    /// address (lowercased, without port); `*` answers every name.
    public var allowedHosts: Set<String>

    /// A guard with these limits.
    public init(rateLimiter: RateLimiter? = nil, allowedHosts: Set<String> = []) {
        self.rateLimiter = rateLimiter
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// Refuses a request whose `Host` is neither a loopback name, the listen address nor an allowed
    /// host (HOST_NOT_ALLOWED). A request without `Host` (HTTP/1.0) passes: browsers always send one.
    public func checkHost(_ request: HTTPRequest) throws {
        guard !allowedHosts.contains("*"), let host = request.headers["host"] else { return }
        if Self.isUsualLoopbackHost(host) { return }
        let name = Self.hostName(host)
        if name == "localhost" || name == "::1" || Self.isLoopbackIPv4(name) || allowedHosts.contains(name) { return }
        throw FleetError(.hostNotAllowed, detail: "'\(name)' (the server answers only loopback names and its listen address without token checks; add --allow-host \(name) to answer it)",
                         field: "Host")
    }

    /// `127.0.0.1` or `localhost`, with or without a port: what nearly every request names,
    /// recognised without allocating.
    static func isUsualLoopbackHost(_ value: String) -> Bool {
        var utf8 = value.utf8[...]
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")) {
            guard utf8[utf8.index(after: colon)...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return false }
            utf8 = utf8[..<colon]
        }
        return utf8.elementsEqual("127.0.0.1".utf8) || utf8.elementsEqual("localhost".utf8)
    }

    /// Whether `name` is an IPv4 literal in 127.0.0.0/8 (not a DNS name such as `127.attacker.example`,
    /// which is exactly what a rebinding page would use).
    static func isLoopbackIPv4(_ name: String) -> Bool {
        var address = in_addr()
        guard inet_pton(AF_INET, name, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// The host name of a `Host` value, lowercased, without port or IPv6 brackets.
    static func hostName(_ value: String) -> String {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") { return String(text[..<colon]) }
        return text
    }

    /// Refuses a body that is not labelled `application/json` (parameters such as `charset` allowed):
    /// UNSUPPORTED_MEDIA_TYPE, sent as 415.
    public func checkContentType(_ request: HTTPRequest) throws {
        guard !request.body.isEmpty else { return }
        guard let type = request.headers["content-type"] else {
            throw FleetError(.unsupportedMediaType, detail: "the request has a body but no Content-Type header; send Content-Type: application/json",
                             field: "Content-Type")
        }
        if type == "application/json" { return }  // the usual case, without the parsing below
        let media = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard media == "application/json" else {
            throw FleetError(.unsupportedMediaType, detail: "the Content-Type header is '\(media)'; send Content-Type: application/json",
                             field: "Content-Type")
        }
    }

    /// Counts one request against `key`'s rate; throws RATE_LIMITED, carrying the wait, when over it.
    public func limitRate(key: @autoclosure () -> String) throws {
        guard let rateLimiter else { return }
        let caller = key()
        guard let wait = rateLimiter.admit(caller) else { return }
        var error = FleetError(.rateLimited, detail: "more than \(Self.number(rateLimiter.rate)) requests a second (bursts of \(Self.number(rateLimiter.burst))) from \(caller); retry after \(Self.number(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)) s")
        error.retryAfter = wait
        throw error
    }

    /// The rate-limit key of a caller: its token's subject, role and scope (every ID its authorization
    /// claim names) when it has one, else its address.
    static func callerKey(token: VerifiedToken?, address: String) -> String {
        guard let token else { return "address \(address)" }
        var key = "token \(token.claims.subject ?? "-") as \(token.role)"
        for member in token.scope.members { key += " \(member.claim) \(member.id)" }
        return key
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 1000).rounded() / 1000)
    }
}
