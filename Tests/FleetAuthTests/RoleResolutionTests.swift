import FleetAuth
import FleetErrors
import Testing

@Suite struct RoleResolutionTests {
    private let clock = TestClock(Fixture.epoch + 5)

    private func verify(_ claims: JWTClaims, roles: IssuerRoleMap) throws -> VerifiedToken {
        let token = try Fixture.privateKey().sign(claims: claims)
        return try TokenVerifier(keys: [try Fixture.publicKey()], issuerRoles: roles, clock: clock.epochClock).verify(token)
    }

    @Test(arguments: [("server", Role.server), ("driver", .driver), ("consumer", .consumer), ("fleet-reader", .fleetReader),
                      ("fleet_reader", .fleetReader), ("fleetReader", .fleetReader), ("DRIVER", .driver),
                      ("trusted-driver", .trustedDriver), ("trusted_driver", .trustedDriver), ("trustedDriver", .trustedDriver)])
    func roleNamesAreRead(name: String, role: Role) {
        #expect(Role(name: name) == role)
    }

    @Test func unknownRoleNamesAreNotRoles() {
        #expect(Role(name: "admin") == nil)
        #expect(Role(name: "") == nil)
    }

    @Test func theRoleClaimIsTrustedForUnmappedIssuersByDefault() throws {
        #expect(try verify(fleetClaims(role: .fleetReader), roles: IssuerRoleMap()).role == .fleetReader)
        expectFleetError(.jwtWithoutRole, containing: "is not mapped to a role and the token has no fleetrole claim") {
            _ = try verify(fleetClaims(role: nil), roles: IssuerRoleMap())
        }
    }

    @Test func unmappedIssuersCanBeRefused() throws {
        let roles = IssuerRoleMap(unmappedIssuers: .reject)
        expectFleetError(.jwtWithoutRole, containing: "refuses unmapped issuers") { _ = try verify(fleetClaims(role: .server), roles: roles) }
    }

    @Test func aMappedIssuerGivesItsRoleWhenTheTokenClaimsNone() throws {
        var roles = IssuerRoleMap()
        roles.bind(issuer: "minter@example.com", role: .driver, provider: "acme")
        let verified = try verify(fleetClaims(role: nil), roles: roles)
        #expect(verified.role == .driver)
        #expect(verified.provider == "acme")
    }

    @Test func aRoleClaimMayNarrowButNotExceedTheIssuersRole() throws {
        var roles = IssuerRoleMap()
        roles.bind(issuer: "minter@example.com", role: .server)
        for role in Role.allCases { #expect(try verify(fleetClaims(role: role), roles: roles).role == role) }

        roles.bind(issuer: "minter@example.com", role: .fleetReader)
        #expect(try verify(fleetClaims(role: .consumer), roles: roles).role == .consumer)
        expectFleetError(.jwtRoleExceedsIssuer, containing: "the token claims server but its issuer \"minter@example.com\" is configured as fleet-reader") {
            _ = try verify(fleetClaims(role: .server), roles: roles)
        }
        expectFleetError(.jwtRoleExceedsIssuer) { _ = try verify(fleetClaims(role: .driver), roles: roles) }

        roles.bind(issuer: "minter@example.com", role: .trustedDriver)
        #expect(try verify(fleetClaims(role: .driver), roles: roles).role == .driver)
        #expect(try verify(fleetClaims(role: nil), roles: roles).role == .trustedDriver)
        expectFleetError(.jwtRoleExceedsIssuer, containing: "the token claims consumer but its issuer \"minter@example.com\" is configured as trusted-driver") {
            _ = try verify(fleetClaims(role: .consumer), roles: roles)
        }

        roles.bind(issuer: "minter@example.com", role: .consumer)
        expectFleetError(.jwtRoleExceedsIssuer) { _ = try verify(fleetClaims(role: .driver), roles: roles) }
        expectFleetError(.jwtRoleExceedsIssuer) { _ = try verify(fleetClaims(role: .fleetReader), roles: roles) }
    }

    @Test func aServiceAccountBindsByItsEmailAndProject() throws {
        let account = try ServiceAccountKey(json: Fixture.text("service-account.json"))
        var roles = IssuerRoleMap()
        roles.bind(serviceAccount: account, role: .consumer, bindProvider: true)
        #expect(roles.bindings[Fixture.serviceAccountEmail] == IssuerRoleMap.Binding(role: .consumer, provider: "example-project"))
    }

    @Test func anUnknownRoleClaimIsMalformed() throws {
        var claims = fleetClaims()
        claims.role = "admin"
        expectFleetError(.jwtMalformed, containing: "claim fleetrole is \"admin\"; expected one of server, driver, trusted-driver, consumer, fleet-reader") {
            _ = try verify(claims, roles: IssuerRoleMap())
        }
    }

    /// Which role may act as which, written out by hand (rows: the acting role; columns: as whom).
    /// A driver no longer covers a consumer: a delivery consumer reads a shipment, which no driver may.
    @Test(arguments: [
        (Role.server, [Role.server, .driver, .trustedDriver, .consumer, .fleetReader]),
        (.driver, [.driver]),
        (.trustedDriver, [.trustedDriver, .driver]),
        (.consumer, [.consumer]),
        (.fleetReader, [.fleetReader, .consumer]),
    ])
    func mayActAs(role: Role, others: [Role]) {
        for other in Role.allCases { #expect(role.mayAct(as: other) == others.contains(other), "\(role) as \(other)") }
    }
}
