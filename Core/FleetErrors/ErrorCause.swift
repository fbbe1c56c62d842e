/// One known reason for an error: its code, what it means, and what to do about it.
///
/// Causes are declared once, in FleetErrors or in the module that reports them, composed into
/// `ErrorCatalogue`, and every error the product reports is built from one.
public struct ErrorCause: Sendable, Hashable, Identifiable {
    /// A stable identifier in upper snake case (`EMPTY_UPDATE_MASK`), sent as `ErrorInfo.reason`.
    public let id: String
    /// The gRPC code this cause produces.
    public let code: GRPCCode
    /// A one-line statement of what went wrong.
    public let summary: String
    /// What the caller should do about it.
    public let remedy: String
    /// Phrases that, found in an error message (case, `_`, `-` and spacing ignored), point to this
    /// cause; `error-explain` uses them to recognise the cause of a message it is given.
    public let matchPhrases: [String]
    /// The message a server answers in place of the error's own when the detail describes the
    /// server's setup (a database's user, host, port and name, a file's path, a driver's message that
    /// may echo a password); the detail then goes only to the server's log. Nil: callers see the
    /// message as it is.
    public let publicMessage: String?

    /// A cause; `matchPhrases` are optional words that recognise it in a message (`"expired"`);
    /// `publicMessage`, when set, is all a server tells its callers of an error with this cause.
    public init(id: String, code: GRPCCode, summary: String, remedy: String, matchPhrases: [String] = [],
                publicMessage: String? = nil) {
        self.id = id
        self.code = code
        self.summary = summary
        self.remedy = remedy
        self.matchPhrases = matchPhrases
        self.publicMessage = publicMessage
    }
}
