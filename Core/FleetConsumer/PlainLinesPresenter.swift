import FleetCLI
import Synchronization

/// One readable line per event, for output that is not a terminal (`PlainEventText`), and a closing
/// line on the summary output (standard error) saying why following ended.
public final class PlainLinesPresenter<Model: FollowedModel>: FollowPresenter {
    /// Where event lines go.
    public let output: any TextOutput
    /// Where the closing line goes.
    public let summaryOutput: any TextOutput
    private let name: String
    private let lastStatus = Mutex<String?>(nil)

    /// Writes the events of `name` to `output` and the closing line to `summaryOutput`.
    public init(name: String, output: any TextOutput, summaryOutput: any TextOutput) {
        self.name = name
        self.output = output
        self.summaryOutput = summaryOutput
    }

    /// Nothing to prepare.
    public func start() {}

    /// Writes each event as one line. A trip or shipment that does not exist yet gets one line on the summary
    /// output saying the follower waits for it, not an error line per attempt; an error that ends
    /// following (`--fail-fast`) gets none, as the tool reports it once on standard error.
    public func present(_ update: FollowUpdate<Model>) {
        lastStatus.withLock { $0 = update.model.statusName }
        var lines = ""
        for event in update.events {
            if case .failure(let failure) = event.value {
                if failure.retryInSeconds == nil { continue }
                if let waiting = PlainEventText.waitingLine(failure, noun: Model.noun, name: name) {
                    if failure.attempt == 1 { summaryOutput.write(waiting + "\n") }
                    continue
                }
            }
            lines += PlainEventText.line(event) + "\n"
        }
        if !lines.isEmpty { output.write(lines) }
    }

    /// Writes why following ended; nothing for a failure, which the tool reports itself.
    public func finish(_ outcome: FollowOutcome) {
        if case .failed = outcome { return }
        summaryOutput.write(outcome.summary(noun: Model.noun, name: name, lastStatus: lastStatus.withLock { $0 }) + "\n")
    }
}
