import FleetInterface
import FleetModel
import FleetREST

extension FuzzTarget {
    /// The REST router and query binding: the first line is `VERB /path?query`, the rest the body.
    /// A call the server side accepts, written back as a request by the client side, must be
    /// accepted again as the same request (client and server agree on the mapping).
    static let rest = FuzzTarget(name: "rest", summary: "RESTMapping.call: routes, query binding, bodies; client/server agreement") { data in
        let bytes = Array(data)
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let line = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return }
        let target = parts[1]
        let question = target.firstIndex(of: "?")
        let path = String(question.map { target[..<$0] } ?? target[...])
        let query: [(name: String, value: String)] = question.map { index in
            target[target.index(after: index)...].split(separator: "&").map { item in
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
            }
        } ?? []
        guard let call = try? RESTMapping.call(verb: String(parts[0]), path: path, query: query, body: body) else { return }
        _ = call.method
        // The engine refuses a resource name that does not parse (an ID holding `/`, say), so the
        // client never has to send one.
        guard call.namesParse else { return }
        let request = RESTMapping.request(for: call)
        let sent = request.body.map { $0.serializedBytes() } ?? []
        do {
            let again = try RESTMapping.call(verb: request.verb, path: request.path, query: request.query.map { ($0.name, $0.value) }, body: sent)
            invariant(RESTMapping.request(for: again) == request, "the call read back differs: \(request.target)")
        } catch {
            invariant(false, "the client's request for an accepted call is refused: \(request.verb) \(request.target): \(error)")
        }
    }
}

extension FleetCall {
    /// Whether the call's resource name (or parent), and a create's new ID, parse as the engine parses them.
    var namesParse: Bool {
        guard (try? checkResourceName()) != nil else { return false }
        switch self {
        case .createVehicle(let r): return ResourceID.isValid(r.vehicleId ?? "")
        case .createTrip(let r): return ResourceID.isValid(r.tripId ?? "")
        default: return true
        }
    }
}
