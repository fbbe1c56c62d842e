/// The trips of each provider by the vehicle that owns them, for `owned(by:provider:)`.
struct OwnerIndex {
    private var tripsByOwner: [String: [String: Set<String>]] = [:]

    mutating func insert(provider: String, owner: String, id: String) {
        tripsByOwner[provider, default: [:]][owner, default: []].insert(id)
    }

    mutating func remove(provider: String, owner: String, id: String) {
        tripsByOwner[provider]?[owner]?.remove(id)
        if tripsByOwner[provider]?[owner]?.isEmpty == true { tripsByOwner[provider]?[owner] = nil }
        if tripsByOwner[provider]?.isEmpty == true { tripsByOwner[provider] = nil }
    }

    /// The IDs of the owner's trips, in `IDOrder`.
    func ids(provider: String, owner: String) -> [String] {
        (tripsByOwner[provider]?[owner] ?? []).sorted(by: IDOrder.precedes)
    }
}
