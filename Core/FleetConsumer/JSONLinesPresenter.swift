import FleetCLI

/// One JSON object per event and line (`--json`), for `jq` and scripts; nothing else on the output.
public struct JSONLinesPresenter<Model: FollowedModel>: FollowPresenter {
    /// Where the lines go.
    public let output: any TextOutput

    /// Writes to `output`.
    public init(output: any TextOutput) {
        self.output = output
    }

    /// Nothing to prepare.
    public func start() {}

    /// Writes each event as one line.
    public func present(_ update: FollowUpdate<Model>) {
        guard !update.events.isEmpty else { return }
        output.write(update.events.map { $0.jsonLine + "\n" }.joined())
    }

    /// Nothing to add: the exit status says why following ended.
    public func finish(_ outcome: FollowOutcome) {}
}
