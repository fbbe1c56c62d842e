/// A provider of one fixed token (`--token`); refreshing gives the same token.
public struct StaticTokenProvider: TokenProvider {
    /// The token.
    public let value: String

    /// A provider of `token`.
    public init(token: String) {
        value = token
    }

    /// The fixed token, whether or not a refresh is asked for.
    public func token(forceRefresh: Bool) throws -> String { value }
}
