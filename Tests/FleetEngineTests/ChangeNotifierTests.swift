@testable import FleetEngine
import FleetStore
import Synchronization
import Testing

/// The notifier skips its lock when nobody watches: it must still tell every observer added since,
/// and stop telling those removed, through every way of observing.
@Suite("ChangeNotifier")
struct ChangeNotifierTests {
    final class KeyObserver: ChangeObserver {
        let count = Mutex(0)
        func recordChanged() { count.withLock { $0 += 1 } }
        var changes: Int { count.withLock { $0 } }
    }

    final class ScopeObserver: ProviderChangeObserver {
        let keys = Mutex<[RecordKey]>([])
        func recordsChanged(_ keys: [RecordKey]) { self.keys.withLock { $0 += keys } }
        var seen: [RecordKey] { keys.withLock { $0 } }
    }

    @Test func observersAddedAfterQuietCommitsAreToldAndRemovedOnesAreNot() {
        let notifier = ChangeNotifier()
        let v1 = RecordKey(.vehicle, provider: "p", id: "v1")
        let v2 = RecordKey(.vehicle, provider: "p", id: "v2")
        let trip = RecordKey(.trip, provider: "p", id: "t1")
        notifier.signal([v1, v2])  // nobody watches: nothing to tell
        let byKey = KeyObserver()
        notifier.observe(v1, by: byKey)
        notifier.signal([v2])
        #expect(byKey.changes == 0)
        notifier.signal([v1, v2])
        #expect(byKey.changes == 1)
        let byScope = ScopeObserver()
        notifier.observe(.vehicle, provider: "p", by: byScope)
        notifier.stopObserving(v1, by: byKey)
        notifier.signal([v1, trip])
        #expect(byKey.changes == 1)
        #expect(byScope.seen == [v1])
        notifier.stopObserving(.vehicle, provider: "p", by: byScope)
        notifier.signal([v1, v2])
        #expect(byScope.seen == [v1])
        // Watching again after everyone left: the quiet path must not stick.
        notifier.observe(v2, by: byKey)
        notifier.signal([v2])
        #expect(byKey.changes == 2)
    }
}
