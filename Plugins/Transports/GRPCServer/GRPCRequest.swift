import FleetErrors
import Foundation

/// One unary call as it arrived: which method, who sent it, its metadata and its message bytes.
public struct GRPCRequest: Sendable {
    /// The method's path, `/package.Service/Method`.
    public var method: String
    /// The `:authority` the client named; empty for a method registered with the server
    /// (`Configuration.methods`), whose calls the core hands over without it.
    public var host: String
    /// The client's metadata (HTTP/2 headers), keys lowercased as on the wire; values as UTF-8 text
    /// (binary `-bin` values are decoded by the core, and read here as UTF-8, lossily). Made from
    /// the core's copy when asked for; `self[metadata:]` reads one value without making the rest.
    public var metadata: [(key: String, value: String)] {
        get { givenMetadata ?? call?.context.metadataPairs() ?? [] }
        set { givenMetadata = newValue }
    }
    /// The peer's address as the core names it: `ipv4:127.0.0.1:40312`, `ipv6:[::1]:40312` (the
    /// server reads it as the call arrives, to count the call against its connection).
    public var peer: String {
        get { givenPeer ?? call?.context.peer() ?? "" }
        set { givenPeer = newValue }
    }
    /// The request message, serialized (binary protobuf for most services).
    public var message: [UInt8]

    private var givenPeer: String?
    private var givenMetadata: [(key: String, value: String)]?
    /// The call this request came with, which the metadata and the peer are read from.
    private var call: CallReference?

    public init(method: String, host: String = "", metadata: [(key: String, value: String)] = [], peer: String = "", message: [UInt8] = []) {
        self.method = method
        self.host = host
        self.givenMetadata = metadata
        self.givenPeer = peer
        self.message = message
    }

    init(method: String, host: String = "", of call: CallReference, message: [UInt8]) {
        self.method = method
        self.host = host
        self.call = call
        self.message = message
    }

    /// The first value of a metadata key (lowercase), nil when absent.
    public subscript(metadata key: String) -> String? {
        if givenMetadata == nil, let call { return call.context.metadataValue(key) }
        return metadata.first { $0.key == key }?.value
    }

    /// The peer's address without the core's scheme prefix (`127.0.0.1:40312`, `[::1]:40312`; the core
    /// percent-encodes the brackets).
    public var peerAddress: String { Self.address(ofPeer: peer) }

    /// The address in a peer name of the core's (see `peerAddress`).
    static func address(ofPeer peer: String) -> String {
        for scheme in ["ipv4:", "ipv6:", "unix:"] where peer.hasPrefix(scheme) {
            let address = String(peer.dropFirst(scheme.count))
            // Foundation's decoding cost an IPv4 call, which has nothing to decode, a sixth of the
            // serving thread's time in a GetTrip.
            guard address.utf8.contains(UInt8(ascii: "%")) else { return address }
            return address.removingPercentEncoding ?? address
        }
        return peer
    }
}

/// A call's outcome when it is not a response message: a gRPC status code, a message for people and,
/// optionally, the rich error model's details.
public struct GRPCStatus: Error, Sendable, Hashable {
    public var code: GRPCCode
    public var message: String
    /// A serialized `google.rpc.Status` (code, message, details such as ErrorInfo), sent as the
    /// `grpc-status-details-bin` trailer, where Google's clients read the error's reason and fields.
    public var details: [UInt8]?

    public init(code: GRPCCode, message: String, details: [UInt8]? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }
}
