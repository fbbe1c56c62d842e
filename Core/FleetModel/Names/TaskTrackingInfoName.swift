/// The name of a task tracking info: `providers/{provider_id}/taskTrackingInfo/{tracking_id}`.
public struct TaskTrackingInfoName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The provider ID (the Cloud project ID).
    public let provider: String
    /// The tracking ID.
    public let trackingID: String

    private static let pattern = ResourceNamePattern(
        collections: ["providers", "taskTrackingInfo"], idWords: ["provider ID", "tracking ID"], cause: .badTaskTrackingInfoName)

    /// The expected form: `providers/{provider_id}/taskTrackingInfo/{tracking_id}`.
    public static var format: String { pattern.format }

    /// A name from its IDs, checked against Fleet Engine's ID rules.
    /// - Throws: INVALID_ARGUMENT (`.badTaskTrackingInfoName`) naming `field` when an ID is invalid.
    public init(provider: String, trackingID: String, field: String = "name") throws {
        self.provider = provider
        self.trackingID = trackingID
        try Self.pattern.validate(ids: [provider, trackingID], name: Self.pattern.format(ids: [provider, trackingID]), field: field)
    }

    /// Parses `providers/{provider_id}/taskTrackingInfo/{tracking_id}` strictly: exactly these segments, these collection names, valid IDs.
    /// - Throws: INVALID_ARGUMENT (`.badTaskTrackingInfoName`) quoting `text` and what is wrong, with `field` set.
    public init(parsing text: String, field: String = "name") throws {
        let ids = try Self.pattern.parse(text, field: field)
        provider = ids[0]
        trackingID = ids[1]
    }

    /// The resource name, `providers/{provider_id}/taskTrackingInfo/{tracking_id}`.
    public var description: String { Self.pattern.format(ids: [provider, trackingID]) }

    /// Orders by the resource name.
    public static func < (lhs: TaskTrackingInfoName, rhs: TaskTrackingInfoName) -> Bool { lhs.description < rhs.description }
}

extension TaskTrackingInfoName {
    /// The provider this resource belongs to (`providers/{provider_id}`).
    public var providerName: ProviderName { ProviderName(checkedProvider: provider) }
}
