/// Shows a followed trip to a person or a program: JSON lines, plain lines, or a live terminal panel.
///
/// The follower's thread calls `present`; the executable calls `start` before following and
/// `finish` once, after it ended (also after Ctrl-C).
public protocol FollowPresenter: Sendable {
    /// Prepares the output (a terminal panel hides the cursor and draws a first frame).
    func start()
    /// Shows an update.
    func present(_ update: TripUpdate)
    /// Ends the output: restores the terminal, says why following ended when that helps.
    func finish(_ outcome: FollowOutcome)
}

extension FollowOutcome {
    /// One sentence saying why following ended: `Trip providers/p/trips/t is COMPLETE.`
    public func summary(tripName: String, lastStatus: String?) -> String {
        switch self {
        case .tripEnded(let status):
            return "Trip \(tripName) is \(status.name)."
        case .untilReached(let status):
            return "Trip \(tripName) reached \(status.name); stopped following."
        case .deadlinePassed:
            return "The deadline passed before trip \(tripName) ended" + (lastStatus.map { " (last status \($0)); stopped following." } ?? "; stopped following.")
        case .stopped:
            return "Stopped following \(tripName)" + (lastStatus.map { " (last status \($0))." } ?? ".")
        case .failed(let error):
            return "Gave up following \(tripName): \(error.code.name): \(error.message)"
        }
    }
}
