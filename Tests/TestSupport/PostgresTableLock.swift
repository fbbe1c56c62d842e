import Foundation

/// A table of a test cluster's database locked against writes (reads go on) by a `psql` session of
/// the superuser, until `release()` commits its transaction: for tests of what waits for a commit.
public final class PostgresTableLock: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var released = false

    public init(cluster: PostgresCluster, database: String, table: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: PostgresCluster.binaries + "/psql")
        process.arguments = ["-h", cluster.folder, "-p", String(cluster.port), "-U", PostgresCluster.user, "-d", database, "-X", "-q", "-A", "-t"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("BEGIN; LOCK TABLE \(table) IN EXCLUSIVE MODE; SELECT 'locked';\n".utf8))
        var seen = ""
        while !seen.contains("locked") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        guard seen.contains("locked") else {
            release()
            throw PostgresCluster.CommandFailed(command: "psql: LOCK TABLE \(table)", output: seen)
        }
    }

    /// Ends the transaction and the session. Calling it again does nothing.
    public func release() {
        let first = lock.withLock { () -> Bool in
            defer { released = true }
            return !released
        }
        guard first else { return }
        input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
