/// What a stream's event handler wants next.
public enum StreamControl: Sendable, Hashable {
    /// Keep receiving events.
    case `continue`
    /// Stop now: the transfer is aborted and `stream` returns `.stoppedByHandler`.
    case stop
}
