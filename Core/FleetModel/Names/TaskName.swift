/// The name of a task: `providers/{provider_id}/tasks/{task_id}`.
public struct TaskName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The provider ID (the Cloud project ID).
    public let provider: String
    /// The task ID.
    public let taskID: String

    private static let pattern = ResourceNamePattern(
        collections: ["providers", "tasks"], idWords: ["provider ID", "task ID"], cause: .badTaskName)

    /// The expected form: `providers/{provider_id}/tasks/{task_id}`.
    public static var format: String { pattern.format }

    /// A name from its IDs, checked against Fleet Engine's ID rules.
    /// - Throws: INVALID_ARGUMENT (`.badTaskName`) naming `field` when an ID is invalid.
    public init(provider: String, taskID: String, field: String = "name") throws {
        self.provider = provider
        self.taskID = taskID
        try Self.pattern.validate(ids: [provider, taskID], name: Self.pattern.format(ids: [provider, taskID]), field: field)
    }

    /// Parses `providers/{provider_id}/tasks/{task_id}` strictly: exactly these segments, these collection names, valid IDs.
    /// - Throws: INVALID_ARGUMENT (`.badTaskName`) quoting `text` and what is wrong, with `field` set.
    public init(parsing text: String, field: String = "name") throws {
        let ids = try Self.pattern.parse(text, field: field)
        provider = ids[0]
        taskID = ids[1]
    }

    /// The resource name, `providers/{provider_id}/tasks/{task_id}`.
    public var description: String { Self.pattern.format(ids: [provider, taskID]) }

    /// Orders by the resource name.
    public static func < (lhs: TaskName, rhs: TaskName) -> Bool { lhs.description < rhs.description }
}

extension TaskName {
    /// The provider this resource belongs to (`providers/{provider_id}`).
    public var providerName: ProviderName { ProviderName(checkedProvider: provider) }
}
