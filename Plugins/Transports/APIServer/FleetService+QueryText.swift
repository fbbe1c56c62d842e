import FleetErrors
import HTTPServer

extension FleetService {
    /// Refuses a query parameter whose name or value is not UTF-8 once percent-decoded
    /// (`vehicleId=%FF%C0`): read leniently, different byte strings would turn into the same
    /// U+FFFD text, so two IDs would collide.
    static func checkQueryText(_ request: HTTPRequest) throws {
        guard let bad = request.query.first(where: { !$0.isValidUTF8 }) else { return }
        throw FleetError.invalidArgument(
            "Invalid query parameter '\(bad.name)': its percent-decoded bytes are not valid UTF-8", field: bad.name)
    }
}
