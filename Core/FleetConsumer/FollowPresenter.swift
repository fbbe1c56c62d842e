/// Shows a followed trip or shipment to a person or a program: JSON lines, plain lines, or a live
/// terminal panel.
///
/// The follower's thread calls `present`; the executable calls `start` before following and
/// `finish` once, after it ended (also after Ctrl-C).
public protocol FollowPresenter<Model>: Sendable {
    /// What is followed.
    associatedtype Model: FollowedModel
    /// Prepares the output (a terminal panel hides the cursor and draws a first frame).
    func start()
    /// Shows an update.
    func present(_ update: FollowUpdate<Model>)
    /// Ends the output: restores the terminal, says why following ended when that helps.
    func finish(_ outcome: FollowOutcome)
}

extension FollowOutcome {
    /// One sentence saying why following ended: `Trip providers/p/trips/t is COMPLETE.`, `Shipment
    /// providers/p/taskTrackingInfo/x closed: SUCCEEDED.`; `noun` is what was followed.
    public func summary(noun: String = TripModel.noun, name: String, lastStatus: String?) -> String {
        let subject = noun.prefix(1).uppercased() + noun.dropFirst() + " " + name
        switch self {
        case .tripEnded(let status):
            return "\(subject) is \(status.name)."
        case .untilReached(let status):
            return "\(subject) reached \(status.name); stopped following."
        case .shipmentClosed(let outcome):
            return "\(subject) closed: \(outcome.name)."
        case .deadlinePassed:
            return "The deadline passed before \(noun) \(name) ended" + (lastStatus.map { " (last status \($0)); stopped following." } ?? "; stopped following.")
        case .stopped:
            return "Stopped following \(name)" + (lastStatus.map { " (last status \($0))." } ?? ".")
        case .failed(let error):
            return "Gave up following \(name): \(error.code.name): \(error.message)"
        }
    }
}
