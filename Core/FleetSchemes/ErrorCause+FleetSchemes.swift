import FleetErrors

extension ErrorCause {
    /// A `--store`, `--transport` or `--router` URL that names no scheme this build knows, or is not written
    /// as its scheme wants.
    public static let unknownScheme = ErrorCause(
        id: "UNKNOWN_SCHEME", code: .invalidArgument,
        summary: "The URL names no scheme this build knows, or is not written as its scheme wants",
        remedy: "Use one of the schemes the message lists, written as shown; each tool's `--help` lists the schemes of its --store, --transport and --router.",
        matchPhrases: ["unknown store", "unknown transport", "unknown router", "use one of", "needs more", "takes nothing after it"])
}

/// The error causes FleetSchemes reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired.
public enum FleetSchemesCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [.unknownScheme]
}
