import FleetErrors

extension ErrorCause {
    /// A request naming a host the server does not answer for while token checks are off.
    public static let hostNotAllowed = ErrorCause(
        id: "HOST_NOT_ALLOWED", code: .permissionDenied,
        summary: "The request's Host is not one this server answers for",
        remedy: "Without token checks the server answers only loopback names (localhost, 127.0.0.1, [::1]) and its listen address, so that a web page cannot reach it through DNS rebinding. Use one of those, or start the server with --allow-host NAME.",
        matchPhrases: ["allow-host", "dns rebinding", "answers for"])
    /// `serve` asked to listen beyond loopback with no way to check tokens.
    public static let insecureListen = ErrorCause(
        id: "INSECURE_LISTEN", code: .failedPrecondition,
        summary: "Refusing to serve without authorization on a non-loopback address",
        remedy: "Give --jwt-key FILE or --jwt-secret-file FILE so callers need tokens, listen on 127.0.0.1, or pass --insecure if the network is trusted.")
}

/// The error causes APIServer reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum APIServerCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .hostNotAllowed, .insecureListen,
    ]
}
