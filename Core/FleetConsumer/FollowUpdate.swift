/// What a follower hands its subscriber each time something happens: the model as it now is, and
/// the events (already filtered by `FollowConfiguration`) that describe the change.
public struct FollowUpdate<Model: FollowedModel>: Sendable, Hashable {
    /// The model after the change.
    public var model: Model
    /// The events, in emission order; may be empty when only filtered-out parts changed or a failure cleared.
    public var events: [FollowEvent<Model.Kind>]

    /// An update.
    public init(model: Model, events: [FollowEvent<Model.Kind>]) {
        self.model = model
        self.events = events
    }
}

/// An update of a followed trip.
public typealias TripUpdate = FollowUpdate<TripModel>
/// An update of a followed shipment.
public typealias ShipmentUpdate = FollowUpdate<ShipmentModel>
