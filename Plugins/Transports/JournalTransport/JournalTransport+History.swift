import FleetInterface

extension JournalTransport: HistoryReading {
    /// The history of the journal's engine, which keeps every location update the journal holds.
    public func history(_ request: HistoryRequest) throws -> HistoryPage {
        try read { try $0.history(request) }
    }
}
