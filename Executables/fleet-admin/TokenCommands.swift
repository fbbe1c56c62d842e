import FleetAuth
import FleetCLI
import FleetErrors
import FleetModel
import Foundation
import OpenSSLJWT

/// `--role` reads as a `Role`: the parser accepts only its claim values.
extension Role: OptionValue {}

/// `fleet-admin token mint|inspect`: Fleet Engine JWTs, signed RS256 with a service-account key
/// or HS256 with a local secret (the file `serve --jwt-secret-file` takes).
enum TokenCommands {
    /// The `token` group.
    static let command = Command(
        "token", abstract: "Mint and inspect Fleet Engine JWTs.",
        subcommands: [mint, inspect])

    /// `--key` and `--secret-file`: the signing (or verifying) key.
    struct KeyFlags: OptionGroup {
        @Option("key", valueName: "sa.json", help: "A Google service-account key file: RS256, kid = private_key_id, iss = sub = client_email.",
                completion: .files)
        var serviceAccountFile: String?
        @Option("secret-file", valueName: "file", help: "An HS256 secret of at least 32 bytes (one trailing newline ignored); the file serve --jwt-secret-file takes.",
                completion: .files)
        var secretFile: String?

        init() {}
    }

    /// The options of `token mint`.
    struct MintFlags: OptionGroup {
        /// One of `Role`'s claim values.
        @Option("role", valueName: "role", help: "Who the token speaks for.")
        var role: Role
        @Option("vehicle", valueName: "id", help: "authorization.vehicleid: the rides vehicle (a driver token needs it or --delivery-vehicle).")
        var vehicle: String?
        @Option("trip", valueName: "id", help: "authorization.tripid: the rides trip (a consumer token needs it or --tracking).")
        var trip: String?
        @Option("delivery-vehicle", valueName: "id",
                help: "authorization.deliveryvehicleid: the Deliveries vehicle (a driver or trusted-driver token needs it or --vehicle).")
        var deliveryVehicle: String?
        @Option("task", valueName: "id", help: "authorization.taskid: the task a trusted-driver token may update (* for every task).")
        var task: String?
        @Option("tracking", valueName: "id", help: "authorization.trackingid: the shipment a consumer token may follow (GetTaskTrackingInfo).")
        var tracking: String?
        @Option("ttl", valueName: "duration", help: "How long the token lives.", default: "1h")
        var ttl: Duration
        @Option("issuer", valueName: "iss", help: "iss and sub (default: the service account's email, else fleet-engine-self-hosted).")
        var issuer: String?
        @Option("audience", valueName: "aud", help: "aud.", default: TokenVerifier.fleetEngineAudience)
        var audience: String
        @Flag("allow-long-ttl", help: "Accept a --ttl over one hour (self-hosted servers configured for it only).")
        var allowLongTTL: Bool
        var keys = KeyFlags()

        init() {}
    }

    /// The options of `token inspect`.
    struct InspectFlags: OptionGroup {
        var keys = KeyFlags()
        @Option("public-key", valueName: "pem", help: "An RSA public key or certificate (PEM) to verify RS256 tokens with.", completion: .files)
        var publicKeyFile: String?
        @Option("accept-audience", valueName: "aud", help: "Another accepted aud besides Fleet Engine's.")
        var acceptedAudiences: [String]

        init() {}
    }

    /// `token inspect [<jwt>]`.
    static let jwtArgument = Argument("jwt", help: "The token, or - to read it from standard input (default: --token).", arity: .optional)

    // MARK: mint

    /// `token mint`.
    static let mint = AdminCommand.make(
        "mint", abstract: "Sign a token for a role and print it alone on standard output.",
        discussion: "Claims: iss and sub (the service account, or --issuer), aud (Fleet Engine's, or --audience), iat, exp = iat + --ttl (at most 1h unless --allow-long-ttl), authorization {vehicleid, tripid, deliveryvehicleid, taskid, trackingid} (server tokens: * unless given; fleet-reader: every ID *; driver and trusted-driver: --vehicle or --delivery-vehicle required; consumer: --trip or --tracking required), and fleetrole, which a self-hosted server reads. For Deliveries, driver is Fleet Engine's Delivery Untrusted Driver and trusted-driver its Delivery Trusted Driver.",
        options: MintFlags.options,
        examples: [
            Example("fleet-admin token mint --role server --key sa.json", "A one-hour server token, as Fleet Engine expects it."),
            Example("fleet-admin token mint --role driver --vehicle car-1 --secret-file /etc/fleet/jwt.secret --ttl 30m",
                    "An HS256 driver token for car-1, for a serve started with --jwt-secret-file."),
            Example("export FLEET_TOKEN=$(fleet-admin token mint --role consumer --trip trip-1 --secret-file jwt.secret)",
                    "Use the token for the next commands."),
            Example("fleet-admin token mint --role driver --delivery-vehicle van-7 --secret-file jwt.secret",
                    "A delivery driver's token: reads van-7 and updates its location."),
            Example("fleet-admin token mint --role trusted-driver --delivery-vehicle van-7 --task '*' --secret-file jwt.secret",
                    "A trusted courier app: creates van-7, changes its stops, creates and updates tasks."),
            Example("fleet-admin token mint --role consumer --tracking parcel-42 --secret-file jwt.secret",
                    "A customer following shipment parcel-42 (GetTaskTrackingInfo)."),
        ]) { session in
        let flags = try MintFlags(session.arguments)
        guard let key = try signingKey(flags.keys, session) else {
            throw session.arguments.usageError("missing the signing key: --key sa.json (RS256) or --secret-file FILE (HS256)")
        }
        let minter = TokenMinter(key: key, issuer: flags.issuer, audience: flags.audience, allowsLifetimeOverOneHour: flags.allowLongTTL)
        let token = try minter.mint(role: flags.role, vehicleID: flags.vehicle, tripID: flags.trip, deliveryVehicleID: flags.deliveryVehicle,
                                    taskID: flags.task, trackingID: flags.tracking, ttl: flags.ttl.seconds)
        session.context.print(token)
        return 0
    }

    /// The key `--key` or `--secret-file` names, or nil when neither is given; a usage error when both are.
    static func signingKey(_ keys: KeyFlags, _ session: AdminSession) throws -> SigningKey? {
        switch (keys.serviceAccountFile, keys.secretFile) {
        case (_?, _?):
            throw session.arguments.usageError("give --key or --secret-file, not both")
        case (let path?, nil):
            return try SigningKey.rs256(serviceAccountJSON: InputFiles.text(path, standardInput: session.context.standardInput))
        case (nil, let path?):
            return try SigningKey.hs256(secretFileContents: InputFiles.bytes(path))
        case (nil, nil):
            return nil
        }
    }

    // MARK: inspect

    /// `token inspect`.
    static let inspect = AdminCommand.make(
        "inspect", abstract: "Decode a token and, given its key, verify it as a server would.",
        discussion: "Without a key the token is only decoded (signature not checked). With --key, --public-key or --secret-file it is verified: signature, exp/nbf/iat (30 s skew, lifetime at most 1h), aud, and the fleetrole claim; a failure prints the explanation and exits 26 (UNAUTHENTICATED) or 17 (PERMISSION_DENIED). The token comes from the argument, - (standard input), or --token/FLEET_TOKEN.",
        options: InspectFlags.options,
        arguments: [jwtArgument],
        examples: [
            Example("fleet-admin token inspect eyJhbGciOi…", "Header and claims, with times in UTC."),
            Example("fleet-admin token mint --role server --secret-file s | fleet-admin token inspect - --secret-file s",
                    "Mint and verify in one go."),
        ]) { session in
        let arguments = session.arguments
        let flags = try InspectFlags(arguments)
        var text = arguments.string(jwtArgument) ?? session.token.token
        if text == "-" { text = try session.context.standardInput.readText() }
        guard let token = text?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty else {
            throw arguments.usageError("missing the token: give it as an argument, - for standard input, or --token")
        }
        let jwt = try JWT.decode(token)
        let now = Date().timeIntervalSince1970
        let keys = try verificationKeys(flags, session)
        var verification: TokenReport.Verification = .notChecked
        var failure: FleetError?
        if !keys.isEmpty {
            let verifier = TokenVerifier(keys: keys, additionalAudiences: flags.acceptedAudiences)
            do {
                verification = .verified(role: try verifier.verify(token).role)
            } catch let error as FleetError where error.cause == ErrorCause.jwtWithoutRole.id {
                // Role resolution is the verifier's last step: everything else held.
                verification = .verifiedWithoutRole
            } catch let error as FleetError {
                verification = .failed(error.message)
                failure = error
            }
        }
        let report = TokenReport(jwt: jwt, verification: verification, now: now)
        session.printer.value(report.json) { report.block.lines(labelStyle: session.style.dim) }
        if let failure { throw failure }
        return 0
    }

    /// The keys `--key`, `--public-key` and `--secret-file` give, to verify with.
    static func verificationKeys(_ flags: InspectFlags, _ session: AdminSession) throws -> [VerificationKey] {
        var keys: [VerificationKey] = []
        if let path = flags.keys.serviceAccountFile {
            keys.append(try VerificationKey.fromServiceAccountJSON(InputFiles.text(path, standardInput: session.context.standardInput)))
        }
        if let path = flags.publicKeyFile {
            keys.append(try VerificationKey.rs256(publicKeyPEM: InputFiles.text(path, standardInput: session.context.standardInput)))
        }
        if let path = flags.keys.secretFile {
            keys.append(try VerificationKey.hs256(secretFileContents: InputFiles.bytes(path)))
        }
        return keys
    }
}
