extension GRPCCode {
    /// Finds a code by its name in any usual spelling: `PERMISSION_DENIED`, `permission-denied`,
    /// `permission denied`, `PermissionDenied`, `permissionDenied`, `Permission_Denied`, the
    /// American `CANCELED`, and with the prefixes other gRPC libraries print (`StatusCode.UNAVAILABLE`,
    /// `GRPC_STATUS_UNAVAILABLE`, `Code.NOT_FOUND`).
    public init?(spelling: String) {
        var key = GRPCCode.canonicalSpelling(of: spelling)
        for prefix in ["STATUS_CODE_", "GRPC_STATUS_", "GRPC_", "CODE_"] where key.hasPrefix(prefix) {
            key.removeFirst(prefix.count)
            break
        }
        if key == "CANCELED" { key = "CANCELLED" }
        guard let code = GRPCCode(name: key) else { return nil }
        self = code
    }

    /// Upper snake case of any spelling: words split at `-`, `_`, `.`, spaces and lower-to-upper
    /// case changes, joined by single underscores (`permissionDenied` → `PERMISSION_DENIED`).
    public static func canonicalSpelling(of text: String) -> String {
        var result = ""
        var previous: Character?
        for character in text {
            if character.isLetter || character.isNumber {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                    result.append("_")
                }
                result += character.uppercased()
            } else if !result.isEmpty, result.last != "_" {
                result.append("_")
            }
            previous = character
        }
        while result.last == "_" { result.removeLast() }
        return result
    }
}
