// store-writer: a test helper that writes to a shared store from its own OS process.
//
//   store-writer STORE_URL --writer N --count K
//
// Does K rounds of: one read-modify-write increment of the shared counter record
// (vehicle "counter" of provider "multi-process", its payload the count in decimal), then one create
// of its own trip "writer-N-I". Retries on StoreConflict. After each acknowledged commit it prints
// one line and flushes: "increment VALUE" or "create ID". Exits 2 on bad usage, 1 on any store error.
import FleetErrors
import FleetStore
import Foundation
import SQLiteStore

/// The stores this helper can open. (Add `FileStore.scheme` here, with its import, to drive file stores.)
let registry = StoreRegistry([SQLiteStore.scheme])

/// The provider every record of this helper belongs to.
let provider = "multi-process"

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("store-writer: \(message)\n".utf8))
    exit(status)
}

func acknowledge(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())
var writer: Int?
var count: Int?
var url: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--writer", "--count":
        guard let value = arguments.first.flatMap({ Int($0) }), value >= 0 else {
            fail("\(argument) needs a whole number", status: 2)
        }
        arguments.removeFirst()
        if argument == "--writer" { writer = value } else { count = value }
    default:
        guard url == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'", status: 2) }
        url = argument
    }
}
guard let url, let writer, let count else {
    fail("usage: store-writer STORE_URL --writer N --count K (stores: \(registry.usage))", status: 2)
}

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
                acknowledge("increment \(value + 1)")
                break
            } catch is StoreConflict {
                continue
            }
        }
        let id = "writer-\(writer)-\(index)"
        let trip = StoreRecord(key: RecordKey(.trip, provider: provider, id: id), version: 0,
                               payload: Array("written by \(writer)".utf8), owner: "writer-\(writer)")
        _ = try retryingWhileBusy { try store.commit(.put(trip, expectedVersion: 0)) }
        acknowledge("create \(id)")
    }
    try store.close()
} catch {
    fail("\(error)", status: 1)
}
