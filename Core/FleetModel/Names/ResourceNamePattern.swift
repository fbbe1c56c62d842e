import FleetErrors

/// The shape `collection/{id}/collection/{id}…` shared by Fleet Engine's resource names, and its strict parser.
struct ResourceNamePattern: Sendable {
    /// The literal collection segments, each followed by an ID: `["providers", "vehicles"]`.
    let collections: [String]
    /// What each ID is called in messages: `["provider ID", "vehicle ID"]`.
    let idWords: [String]
    /// The cause of a bad name.
    let cause: ErrorCause

    /// The expected form, e.g. `providers/{provider_id}/vehicles/{vehicle_id}`.
    var format: String {
        zip(collections, idWords).map { "\($0)/{\($1.replacingOccurrences(of: " ", with: "_").lowercased())}" }
            .joined(separator: "/")
    }

    /// The IDs of `text`, in order.
    /// - Throws: INVALID_ARGUMENT with `cause`, quoting `text` and saying what is wrong, `field` set.
    func parse(_ text: String, field: String) throws -> [String] {
        let expectedCount = collections.count * 2
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == expectedCount else {
            throw failure(text, field: field, "expected \(expectedCount) segments separated by '/', found \(segments.count)")
        }
        var ids: [String] = []
        ids.reserveCapacity(collections.count)
        for (offset, collection) in collections.enumerated() {
            let literal = segments[offset * 2]
            guard literal == collection else {
                throw failure(text, field: field, "segment \(offset * 2 + 1) must be \"\(collection)\", found \(ResourceID.quote(String(literal)))")
            }
            ids.append(String(segments[offset * 2 + 1]))
        }
        try validate(ids: ids, name: text, field: field)
        return ids
    }

    /// Checks each ID; `name` is quoted in the error.
    func validate(ids: [String], name: String, field: String) throws {
        for (id, word) in zip(ids, idWords) {
            if let problem = ResourceID.problem(with: id) {
                throw failure(name, field: field, "the \(word) \(ResourceID.quote(id)) \(problem)")
            }
        }
    }

    /// The name built from IDs.
    func format(ids: [String]) -> String {
        zip(collections, ids).map { "\($0)/\($1)" }.joined(separator: "/")
    }

    private func failure(_ text: String, field: String, _ reason: String) -> FleetError {
        FleetError(cause, detail: "received \(ResourceID.quote(text)): \(reason)", field: field)
    }
}
