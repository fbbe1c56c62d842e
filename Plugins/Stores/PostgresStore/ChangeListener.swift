import FleetConcurrency
import FleetStore
import Foundation
import Synchronization

/// LISTENs on the records table's change channel on a connection of its own, on a thread of its
/// own, and hands the keys each notification names to every handler. Started by the first
/// `observeChanges`, stopped by the last cancel or by the store's `close()`.
///
/// Notifications sent while the connection is down are lost (PostgreSQL keeps none for a listener
/// that is gone): the listener reconnects, and watchers poll besides.
final class ChangeListener: Sendable {
    private let connect: @Sendable () throws -> PGConnection
    private let state = Mutex(State())

    private struct State {
        var handlers: [ObjectIdentifier: @Sendable ([RecordKey]) -> Void] = [:]
        var running: WorkerThread?
        var stopFlag: StopFlag?
    }

    /// How long one wait for the socket lasts before the thread looks whether it should stop.
    static let waitMilliseconds: Int32 = 200
    /// How long the thread waits before connecting again after the connection failed.
    static let reconnectSeconds = 0.5

    init(connect: @escaping @Sendable () throws -> PGConnection) {
        self.connect = connect
    }

    /// Adds a handler, starting the thread if it is the first.
    func add(_ handler: @escaping @Sendable ([RecordKey]) -> Void) -> any StoreChangeObservation {
        let observation = Observation(listener: self)
        state.withLock { state in
            state.handlers[ObjectIdentifier(observation)] = handler
            if state.running == nil {
                let stop = StopFlag()
                state.stopFlag = stop
                state.running = WorkerThread.start(name: "postgres-listen") { [weak self] in self?.run(until: stop) }
            }
        }
        return observation
    }

    fileprivate func remove(_ observation: Observation) {
        state.withLock { state in
            state.handlers[ObjectIdentifier(observation)] = nil
            if state.handlers.isEmpty { Self.stop(&state) }
        }
    }

    /// Stops the thread (it ends within `waitMilliseconds`) and forgets every handler.
    func stop() {
        state.withLock { state in
            state.handlers = [:]
            Self.stop(&state)
        }
    }

    private static func stop(_ state: inout State) {
        state.stopFlag?.set()
        state.stopFlag = nil
        state.running = nil
    }

    private func run(until stop: StopFlag) {
        while !stop.isSet {
            do {
                let connection = try connect()
                try connection.execute("LISTEN \(Schema.changeChannel)", doing: "listening for other nodes' changes")
                try listen(on: connection, until: stop)
            } catch {
                // Reconnect after a pause; watchers poll meanwhile.
            }
            if !stop.isSet { Thread.sleep(forTimeInterval: Self.reconnectSeconds) }
        }
    }

    /// Waits for notifications until told to stop or the connection fails (then throws).
    private func listen(on connection: PGConnection, until stop: StopFlag) throws {
        while !stop.isSet {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Self.waitMilliseconds)
            if ready < 0 && errno != EINTR { throw ListenFailed() }
            guard ready > 0 else { continue }
            guard connection.consumeInput() else { throw ListenFailed() }
            var keys: [RecordKey] = []
            while let notification = connection.nextNotification() {
                if let key = Self.key(from: notification.payload) { keys.append(key) }
            }
            guard !keys.isEmpty else { continue }
            let handlers = state.withLock { Array($0.handlers.values) }
            for handler in handlers { handler(keys) }
        }
    }

    /// `KIND/HEX(PROVIDER)/HEX(ID)` as a key.
    static func key(from payload: String) -> RecordKey? {
        let parts = payload.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let kind = RecordKind(rawValue: String(parts[0])),
              let provider = hexDecoded(parts[1]), let id = hexDecoded(parts[2]) else { return nil }
        return RecordKey(kind, provider: provider, id: id)
    }

    private static func hexDecoded(_ hex: Substring) -> String? {
        guard hex.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let h = nibble(high), let l = nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private struct ListenFailed: Error {}
}

/// Set once to tell the listening thread to end.
private final class StopFlag: Sendable {
    private let flag = Atomic(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}

/// One handler of a `ChangeListener`.
private final class Observation: StoreChangeObservation {
    private let listener = Mutex<ChangeListener?>(nil)

    init(listener: ChangeListener) {
        self.listener.withLock { $0 = listener }
    }

    func cancel() {
        listener.withLock { $0.take() }?.remove(self)
    }

    deinit { cancel() }
}
