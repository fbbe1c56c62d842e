/// An HTTP request method (`GET`, `POST`, …), as sent on the request line.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token, in upper case (`PATCH`).
    public let rawValue: String

    /// A method from its token; the token is upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// A method from a string literal (`"PATCH"`).
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: read a resource's headers only.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: create, or call a custom method (`:search`).
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource (Fleet Engine's update with an update mask).
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask what the server allows.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether sending the request twice has the same effect as once (RFC 9110 §9.2.2).
    ///
    /// A retry layer may resend an idempotent call even when the first attempt may have reached the server.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options: true
        default: false
        }
    }

    /// The method token, as sent.
    public var description: String { rawValue }
}
