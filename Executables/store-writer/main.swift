// store-writer: a test helper that writes to a shared store from its own OS process.
//
//   store-writer STORE_URL --writer N --count K
//
// Does K rounds of: one read-modify-write increment of the shared counter record
// (vehicle "counter" of provider "multi-process", its payload the count in decimal), then one create
// of its own trip "writer-N-I". Retries on StoreConflict. After each acknowledged commit it prints
// one line and flushes: "increment VALUE" or "create ID". Exits 2 on bad usage, 1 on any store error.
#if canImport(Glibc)
import Glibc
#endif
import FleetCLI
import FleetErrors
import FleetStore
import SQLiteStore
import HelperSupport

/// The stores this helper can open. (Add `FileStore.scheme` here, with its import, to drive file stores.)
let registry = StoreRegistry([SQLiteStore.scheme])

/// The provider every record of this helper belongs to.
let provider = "multi-process"

let run = WriterCommandLine.parseOrExit(
    "store-writer", abstract: "Increment a shared counter and create trips in a store, from a process of its own (tests).",
    target: Argument("store-url", help: "The store: \(registry.usage)."))
let (url, writer, count) = (run.target, run.writer, run.count)

/// Runs `body`, retrying while the store is busy past its busy timeout (UNAVAILABLE: nothing was
/// applied), as any client retries a retryable error; gives up after a minute.
func retryingWhileBusy<T>(_ body: () throws -> T) throws -> T {
    var waited = 0
    while true {
        do {
            return try body()
        } catch let error as FleetError where error.cause == ErrorCause.storeBusy.id && waited < 1200 {
            waited += 1
            usleep(50_000)
        }
    }
}

do {
    let store = try retryingWhileBusy { try registry.open(url) }
    let counterKey = RecordKey(.vehicle, provider: provider, id: "counter")
    for index in 0..<count {
        while true {
            let current = try retryingWhileBusy { try store.get(counterKey) }
            let value = current.map { Int(String(decoding: $0.payload, as: UTF8.self)) ?? 0 } ?? 0
            let next = StoreRecord(key: counterKey, version: 0, payload: Array("\(value + 1)".utf8))
            do {
                _ = try retryingWhileBusy { try store.commit(.put(next, expectedVersion: current?.version ?? 0)) }
                run.acknowledge("increment \(value + 1)")
                break
            } catch is StoreConflict {
                continue
            }
        }
        let id = "writer-\(writer)-\(index)"
        let trip = StoreRecord(key: RecordKey(.trip, provider: provider, id: id), version: 0,
                               payload: Array("written by \(writer)".utf8), owner: "writer-\(writer)")
        _ = try retryingWhileBusy { try store.commit(.put(trip, expectedVersion: 0)) }
        run.acknowledge("create \(id)")
    }
    try store.close()
} catch {
    run.fail(error)
}
