/// A method Google's services had and this server does not serve (deprecated in Fleet Engine v1): a
/// call of it is UNIMPLEMENTED, with `reason` saying what to use instead.
public struct RetiredMethod: Sendable, Hashable {
    /// The RPC name (`UpdateVehicleLocation`).
    public var name: String
    /// The gRPC method path.
    public var grpcPath: String
    /// Its REST rule.
    public var rest: HTTPRule
    /// Why it is not served and what to use (`deprecated in Fleet Engine v1 and not served; use …`).
    public var reason: String
}
