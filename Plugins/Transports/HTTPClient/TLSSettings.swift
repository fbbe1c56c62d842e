/// How the client checks a server's TLS certificate.
///
/// The default verifies the certificate chain against the system's CA store and the host name
/// against the certificate, which is what `https://fleetengine.googleapis.com` needs.
public struct TLSSettings: Sendable, Hashable {
    /// Whether the server's certificate chain must verify against the CA bundle.
    public var verifyPeer: Bool
    /// Whether the certificate must name the host in the URL.
    public var verifyHost: Bool
    /// A PEM file of trusted CAs instead of libcurl's default (the system store); nil for the default.
    public var caBundlePath: String?

    /// Settings; the defaults verify everything against the system store.
    public init(verifyPeer: Bool = true, verifyHost: Bool = true, caBundlePath: String? = nil) {
        self.verifyPeer = verifyPeer
        self.verifyHost = verifyHost
        self.caBundlePath = caBundlePath
    }
}
