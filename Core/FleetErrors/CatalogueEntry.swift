/// Everything the catalogue knows about one gRPC code: number, name, HTTP status, retry class,
/// what the code means, and the Fleet Engine causes that produce it.
public struct CatalogueEntry: Sendable, Hashable, Identifiable {
    /// The code.
    public let code: GRPCCode
    /// What the code means, in a sentence or two.
    public let description: String
    /// The known causes of this code, most common first.
    public let causes: [ErrorCause]

    /// The code itself identifies the entry.
    public var id: GRPCCode { code }
    /// The gRPC number (`7`).
    public var number: Int32 { code.rawValue }
    /// The canonical name (`PERMISSION_DENIED`).
    public var name: String { code.name }
    /// The HTTP status Google's REST mapping uses for the code.
    public var httpStatus: Int { code.httpStatus }
    /// How a client should react.
    public var retryClass: RetryClass { code.retryClass }

    /// An entry; `causes` are expected to carry `code` (the catalogue checks it in its tests).
    public init(code: GRPCCode, description: String, causes: [ErrorCause]) {
        self.code = code
        self.description = description
        self.causes = causes
    }
}
