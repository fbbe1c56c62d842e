/// What a follower hands its subscriber each time something happens: the trip model as it now is,
/// and the events (already filtered by `FollowConfiguration.events`) that describe the change.
public struct TripUpdate: Sendable, Hashable {
    /// The model after the change.
    public var model: TripModel
    /// The events, in emission order; may be empty when only filtered-out parts changed or a failure cleared.
    public var events: [TripEvent]

    /// An update.
    public init(model: TripModel, events: [TripEvent]) {
        self.model = model
        self.events = events
    }
}
