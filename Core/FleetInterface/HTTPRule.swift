/// A method's REST mapping, as Google's `google.api.http` annotation writes it: the verb, the path
/// template (`/v1/{name=providers/*/vehicles/*}:updateAttributes`) and which part of the request is
/// the body (`""` none, `"*"` all of it but the path's field, or one field's JSON name such as `vehicle`).
public struct HTTPRule: Sendable, Hashable {
    public var verb: String
    public var path: String
    public var body: String

    public init(verb: String, path: String, body: String) {
        self.verb = verb
        self.path = path
        self.body = body
    }
}
