import FleetErrors
import FleetModel

/// The server's configuration of roles: which issuer (`iss`, a service account's email) acts as which
/// role and, optionally, for which provider. A self-hosted server has no IAM, so this stands in for it.
///
/// Precedence, when a verified token's role is decided:
/// 1. **The issuer is mapped**: its configured role is the ceiling. A `fleetrole` claim may narrow it
///    to a role the ceiling covers (`Role.mayAct(as:)`: a server issuer may mint tokens of every role;
///    a trusted-driver issuer driver tokens; a fleet-reader issuer consumer tokens); a claim asking
///    for more is PERMISSION_DENIED `.jwtRoleExceedsIssuer`. Without a claim the configured role applies.
/// 2. **The issuer is not mapped**: with `.trustRoleClaim` (the default) the `fleetrole` claim is the
///    role — every configured key is the server's own, so what it signed is trusted; with `.reject`
///    the token is refused. No claim → PERMISSION_DENIED `.jwtWithoutRole`.
/// An unknown `fleetrole` value is UNAUTHENTICATED `.jwtMalformed`.
public struct IssuerRoleMap: Sendable, Hashable {
    /// What one issuer is configured as.
    public struct Binding: Sendable, Hashable {
        /// The role (the ceiling for role claims).
        public var role: Role
        /// The only provider its tokens may act on, or nil for any.
        public var provider: String?

        /// A binding.
        public init(role: Role, provider: String? = nil) {
            self.role = role
            self.provider = provider
        }
    }

    /// What to do with tokens whose issuer is not mapped.
    public enum UnmappedIssuers: String, Sendable, Hashable {
        /// Take the role from the token's `fleetrole` claim.
        case trustRoleClaim = "trust-role-claim"
        /// Refuse the token.
        case reject
    }

    /// Issuer → binding.
    public var bindings: [String: Binding]
    /// The policy for issuers not in `bindings`.
    public var unmappedIssuers: UnmappedIssuers

    /// A map (empty by default: every token's role comes from its claim).
    public init(bindings: [String: Binding] = [:], unmappedIssuers: UnmappedIssuers = .trustRoleClaim) {
        self.bindings = bindings
        self.unmappedIssuers = unmappedIssuers
    }

    /// Maps `issuer` to `role`, optionally bound to `provider`.
    public mutating func bind(issuer: String, role: Role, provider: String? = nil) {
        bindings[issuer] = Binding(role: role, provider: provider)
    }

    /// Maps a service account (its `client_email`) to `role`; with `bindProvider`, also to its
    /// `project_id` as the only provider.
    public mutating func bind(serviceAccount: ServiceAccountKey, role: Role, bindProvider: Bool = false) {
        bind(issuer: serviceAccount.clientEmail, role: role, provider: bindProvider ? serviceAccount.projectID : nil)
    }

    /// The role and bound provider of verified claims, by the precedence above.
    public func resolve(_ claims: JWTClaims) throws -> (role: Role, provider: String?) {
        let claimed = try claims.role.map { value -> Role in
            guard let role = Role(name: value) else {
                let names = Role.allCases.map(\.rawValue).joined(separator: ", ")
                throw FleetError(.jwtMalformed, detail: "claim \(JWTClaims.roleClaimName) is \(JSON.string(value).serialized()); expected one of \(names)")
            }
            return role
        }
        let issuer = claims.issuer.map { JSON.string($0).serialized() } ?? "(no iss)"
        if let binding = claims.issuer.flatMap({ bindings[$0] }) {
            guard let claimed else { return (binding.role, binding.provider) }
            guard binding.role.mayAct(as: claimed) else {
                throw FleetError(.jwtRoleExceedsIssuer, detail: "the token claims \(claimed) but its issuer \(issuer) is configured as \(binding.role)")
            }
            return (claimed, binding.provider)
        }
        switch unmappedIssuers {
        case .reject:
            throw FleetError(.jwtWithoutRole, detail: "issuer \(issuer) is not mapped to a role, and this server refuses unmapped issuers")
        case .trustRoleClaim:
            guard let claimed else {
                throw FleetError(.jwtWithoutRole, detail: "issuer \(issuer) is not mapped to a role and the token has no \(JWTClaims.roleClaimName) claim")
            }
            return (claimed, nil)
        }
    }
}
