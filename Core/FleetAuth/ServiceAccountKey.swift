import FleetErrors
import FleetModel

/// A Google service-account key file (the JSON `gcloud iam service-accounts keys create` writes):
/// `type` `service_account`, `project_id`, `private_key_id`, `private_key` (PKCS#8 PEM with `\n`
/// escapes), `client_email`, `client_id`, `token_uri`, ….
public struct ServiceAccountKey: Sendable, Hashable {
    /// `project_id`: the Cloud project, which is also the Fleet Engine provider ID.
    public var projectID: String?
    /// `private_key_id`: the key's ID, sent as the JWT header's `kid`.
    public var privateKeyID: String
    /// `private_key`: the PEM private key.
    public var privateKeyPEM: String
    /// `client_email`: the service account, sent as `iss` and `sub`.
    public var clientEmail: String
    /// `client_id`, when present.
    public var clientID: String?

    /// A key from its parts.
    public init(projectID: String?, privateKeyID: String, privateKeyPEM: String, clientEmail: String, clientID: String? = nil) {
        self.projectID = projectID
        self.privateKeyID = privateKeyID
        self.privateKeyPEM = privateKeyPEM
        self.clientEmail = clientEmail
        self.clientID = clientID
    }

    /// Reads a key file's JSON text.
    ///
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` when the text is not a JSON object, `type` is present
    ///   and not `service_account`, or `private_key`, `private_key_id` or `client_email` is missing or not
    ///   a non-empty string.
    public init(json text: String) throws {
        let value: JSON
        do {
            value = try JSON.parse(text)
        } catch let error as FleetError {
            throw FleetError(.authKeyInvalid, detail: "the service-account key file is not valid JSON: \(error.message)")
        }
        guard let object = value.objectValue else {
            throw FleetError(.authKeyInvalid, detail: "the service-account key file holds \(value.kindDescription), not a JSON object")
        }
        if let type = object["type"], type.stringValue != "service_account" {
            throw FleetError(.authKeyInvalid, detail: "the key file's type is \(type.serialized()), expected \"service_account\"")
        }
        func required(_ name: String) throws -> String {
            guard let text = object[name]?.stringValue, !text.isEmpty else {
                throw FleetError(.authKeyInvalid, detail: "the service-account key file has no \(name) (a non-empty string)")
            }
            return text
        }
        func optional(_ name: String) -> String? { object[name]?.stringValue }
        self.init(projectID: optional("project_id"), privateKeyID: try required("private_key_id"),
                  privateKeyPEM: try required("private_key"), clientEmail: try required("client_email"),
                  clientID: optional("client_id"))
    }

    /// The key file's JSON (the members this type holds, with `type` `service_account`), as
    /// `ServiceAccountKey(json:)` reads it.
    public var json: JSON {
        var object: JSONObject = ["type": "service_account"]
        if let projectID { object["project_id"] = .string(projectID) }
        object["private_key_id"] = .string(privateKeyID)
        object["private_key"] = .string(privateKeyPEM)
        object["client_email"] = .string(clientEmail)
        if let clientID { object["client_id"] = .string(clientID) }
        return .object(object)
    }
}
