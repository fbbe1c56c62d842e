import FleetAuth
import FleetEngine

extension ConnectionOptions {
    /// Options whose bearer token comes from `tokens` (`forceRefresh` after a 401).
    public init(store: String? = nil, tokens: (any TokenProvider)?, clock: any EngineClock = SystemClock()) {
        self.init(store: store, token: tokens.map { provider in { @Sendable force in try provider.token(forceRefresh: force) } }, clock: clock)
    }
}
