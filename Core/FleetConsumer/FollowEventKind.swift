/// The events of one kind of followed thing (a trip's, a shipment's), named after the Consumer SDK's
/// callbacks. The declaration order of a conforming enum is the emission order within one update:
/// the update event first (it lists what changed), then each changed part.
public protocol FollowEventKind: RawRepresentable<String>, CaseIterable, Comparable, Hashable, Sendable, CustomStringConvertible
where AllCases == [Self] {
    /// The event that opens each update, listing the changed parts (`trip`, `shipment`).
    static var update: Self { get }
    /// A refresh failed.
    static var error: Self { get }
    /// The vehicle's position became stale or fresh again.
    static var vehicleStale: Self { get }
    /// The key naming the followed thing in each event's JSON (`"trip"`, `"shipment"`).
    static var subjectKey: String { get }
}

extension FollowEventKind {
    /// The kinds that describe a part of the followed thing: every kind but the update, `vehicleStale`
    /// and `error`.
    public static var parts: [Self] { allCases.filter { $0 != .update && $0 != .error && $0 != .vehicleStale } }

    /// The event's name, as printed and as `--events` takes it.
    public var description: String { rawValue }

    /// Emission order (the declaration order).
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Parses a comma-separated list of event names (`tripStatus,pickupETA`); spaces around names
    /// and empty items are ignored.
    ///
    /// - Returns: the kinds, or the first name that is not an event (`.failure(name)`).
    public static func parseList(_ text: String) -> Result<Set<Self>, UnknownEventName> {
        var kinds: Set<Self> = []
        for item in text.split(separator: ",") {
            let name = String(item.filter { !$0.isWhitespace })
            guard !name.isEmpty else { continue }
            guard let kind = Self(rawValue: name) else { return .failure(UnknownEventName(name: name)) }
            kinds.insert(kind)
        }
        return .success(kinds)
    }
}

/// A name given to `--events` that is not one of the followed thing's events.
public struct UnknownEventName: Error, Sendable, Hashable {
    /// The name as given.
    public let name: String
}
