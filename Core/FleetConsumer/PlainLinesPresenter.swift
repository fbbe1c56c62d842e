import FleetCLI
import Synchronization

/// One readable line per event, for output that is not a terminal (`PlainEventText`), and a closing
/// line on the summary output (standard error) saying why following ended.
public final class PlainLinesPresenter: FollowPresenter {
    /// Where event lines go.
    public let output: any TextOutput
    /// Where the closing line goes.
    public let summaryOutput: any TextOutput
    private let tripName: String
    private let lastStatus = Mutex<String?>(nil)

    /// Writes events to `output` and the closing line to `summaryOutput`.
    public init(tripName: String, output: any TextOutput, summaryOutput: any TextOutput) {
        self.tripName = tripName
        self.output = output
        self.summaryOutput = summaryOutput
    }

    /// Nothing to prepare.
    public func start() {}

    /// Writes each event as one line.
    public func present(_ update: TripUpdate) {
        lastStatus.withLock { $0 = update.model.status?.name }
        guard !update.events.isEmpty else { return }
        output.write(update.events.map { PlainEventText.line($0) + "\n" }.joined())
    }

    /// Writes why following ended.
    public func finish(_ outcome: FollowOutcome) {
        summaryOutput.write(outcome.summary(tripName: tripName, lastStatus: lastStatus.withLock { $0 }) + "\n")
    }
}
