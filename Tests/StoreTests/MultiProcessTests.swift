import FleetTestSupport
import FleetErrors
import FleetStore
import Foundation
import SQLiteStore
import Testing

/// Several OS processes writing one SQLite file at once (each runs `store-writer`).
@Suite("SQLite store shared by several processes")
struct MultiProcessTests {
    /// One finished `store-writer` run.
    struct WriterRun {
        let writer: Int
        let status: Int32
        let output: [Substring]
        let errors: String
    }

    @Test(arguments: [2, 4])
    func concurrentProcessesLoseNoWriteAndNeverSeeALock(processes: Int) throws {
        let binary = try Products.locate("store-writer").path
        let directory = try StoreFixture.makeTemporaryDirectory(prefix: "multi-process")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/shared.db"
        let count = 100

        // All start at once on a file that does not exist yet: creating the schema races too.
        let runs = try runWriters(binary, url: "sqlite:\(path)", writers: processes, count: count, directory: directory)

        var increments: [Int] = []
        var created: [String] = []
        for run in runs {
            #expect(run.status == 0, "writer \(run.writer) exited with \(run.status): \(run.errors)")
            #expect(!run.errors.contains("locked"), "writer \(run.writer) reported: \(run.errors)")
            for line in run.output {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { continue }
                if parts[0] == "increment", let value = Int(parts[1]) { increments.append(value) }
                if parts[0] == "create" { created.append(String(parts[1])) }
            }
            #expect(run.output.count == 2 * count, "writer \(run.writer) acknowledged \(run.output.count) writes")
        }

        let total = processes * count
        // Every acknowledged increment saw a distinct value: none overwrote another.
        #expect(increments.sorted() == Array(1...total))
        let store = try SQLiteStore(path: path)
        defer { try? store.close() }
        let counter = try #require(try store.get(RecordKey(.vehicle, provider: "multi-process", id: "counter")))
        #expect(Sample.text(counter) == "\(total)")
        #expect(counter.version == UInt64(total))
        #expect(created.count == total)
        for id in created {
            #expect(try store.get(RecordKey(.trip, provider: "multi-process", id: id)) != nil, "acknowledged \(id) is missing")
        }
        #expect(try store.list(.trip, provider: "multi-process", afterID: nil, limit: 100_000).count == total)
        for writer in 0..<processes {
            #expect(try store.owned(by: "writer-\(writer)", provider: "multi-process").count == count)
        }
    }

    /// Starts `writers` processes together, waits for all and collects what they printed.
    private func runWriters(_ binary: String, url: String, writers: Int, count: Int,
                            directory: String) throws -> [WriterRun] {
        var launched: [(process: Process, output: String, errors: String)] = []
        for writer in 0..<writers {
            let output = "\(directory)/writer-\(writer).out"
            let errors = "\(directory)/writer-\(writer).err"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = [url, "--writer", "\(writer)", "--count", "\(count)"]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            launched.append((process, output, errors))
        }
        for run in launched {
            try run.process.run()
        }
        return try launched.enumerated().map { writer, run in
            run.process.waitUntilExit()
            let output = try String(contentsOfFile: run.output, encoding: .utf8)
            let errors = try String(contentsOfFile: run.errors, encoding: .utf8)
            return WriterRun(writer: writer, status: run.process.terminationStatus,
                             output: output.split(separator: "\n"), errors: errors)
        }
    }
}
