import Foundation

/// A throwaway PostgreSQL 15 server for the benchmarks: `initdb` in a temporary folder (on the same
/// disk as the SQLite files the other rows write), started on a free loopback port with its socket in
/// that folder, and stopped and removed by `stop()`.
///
/// Unlike the test cluster it keeps PostgreSQL's durability settings (`fsync` and
/// `synchronous_commit` on): a commit is acknowledged once its WAL is on disk, as the durable SQLite
/// rows it is compared with. `initdb` refuses to run as root, so as root the server runs as the
/// `postgres` user (the folder is handed to it).
final class BenchCluster: Sendable {
    /// Where Debian's `postgresql-15` puts the server binaries.
    static let binaries = "/usr/lib/postgresql/15/bin"
    static let user = "fleet"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binaries + "/initdb") }

    let folder: String
    let port: Int
    /// The address it listens on, which clients name in their URLs.
    let host: String
    private let asPostgres: Bool

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `listen` is the address to listen on; `clients`, a network (CIDR) whose clients it trusts
    /// besides loopback; `launcher`, a command the server is started through (`fleet-bench nodes`
    /// starts it in a network namespace and CPU quota of its own); `folder`, where it goes.
    init(listen: String = "127.0.0.1", clients: String? = nil, launcher: [String] = [], folder: String? = nil) throws {
        asPostgres = getuid() == 0
        host = listen
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("fleet-bench-pg-\(getpid())").path
        self.folder = folder
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if asPostgres { _ = try Self.run("/bin/chown", ["postgres:postgres", folder]) }
        var candidate = 30000 + Int(getpid() % 20000)
        do {
            _ = try Self.run(Self.binaries + "/initdb", ["-D", folder + "/data", "-U", Self.user, "--auth=trust", "-E", "UTF8",
                                                         "--no-locale", "--no-sync"], asPostgres: asPostgres)
            if let clients, let hba = FileHandle(forWritingAtPath: folder + "/data/pg_hba.conf") {
                hba.seekToEndOfFile()
                hba.write(Data("host all all \(clients) trust\n".utf8))
                try? hba.close()
            }
            // The port follows from the process ID, and another run's cluster (another checkout's
            // benchmark) may hold it: the next few ports are tried before giving up.
            for attempt in 0..<5 {
                do {
                    _ = try Self.run(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "30", "-o",
                                                                 "-p \(candidate) -k \(folder) -c listen_addresses=\(listen) -c max_connections=200",
                                                                 "start"], asPostgres: asPostgres, launcher: launcher)
                    break
                } catch {
                    let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
                    guard attempt < 4, log.contains("already in use") else { throw error }
                    candidate = 30000 + (candidate - 30000 + 7919) % 20000
                    try? FileManager.default.removeItem(atPath: folder + "/log")
                }
            }
        } catch {
            // The server's own log says why it stopped (a port in use, shared memory): keep its end.
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
            _ = try? Self.run(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: asPostgres)
            try? FileManager.default.removeItem(atPath: folder)
            if log.isEmpty { throw error }
            throw Failure(description: "\(error); the server's log ends: " + log.suffix(400).split(separator: "\n").joined(separator: " | "))
        }
        port = candidate
    }

    /// Creates database `name`; returns its `postgres://fleet@HOST:PORT/NAME`.
    func database(_ name: String) throws -> String {
        _ = try Self.run(Self.binaries + "/createdb", ["-h", folder, "-p", String(port), "-U", Self.user, name])
        return "postgres://\(Self.user)@\(host):\(port)/\(name)"
    }

    /// Database `name`'s URL through the server's socket in `folder`, which reaches it from any
    /// network namespace.
    func socketURL(database name: String) -> String {
        let encoded = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        return "postgres://\(Self.user)@\(encoded):\(port)/\(name)"
    }

    /// The server's first process (`postmaster.pid`), whose children are its backends; nil if unreadable.
    var postmaster: Int32? {
        let file = (try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        return file.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// libpq's connection string for database `name`, for the raw clients.
    func conninfo(database name: String) -> String { "host=\(host) port=\(port) user=\(Self.user) dbname=\(name)" }

    /// Stops the server and removes its folder.
    func stop() {
        _ = try? Self.run(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"], asPostgres: asPostgres)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a command to its end (as `postgres` when asked); throws with its output when it fails.
    /// Output goes to a file, and the child inherits no other descriptor: `pg_ctl start` leaves a
    /// server running that would hold a pipe open (posix_spawn and waitpid rather than Foundation's
    /// Process, whose wait did not return while that server lived on).
    /// `launcher` goes before the command (and `runuser`).
    static func run(_ path: String, _ arguments: [String], asPostgres: Bool = false, launcher: [String] = []) throws -> String {
        let command = launcher + (asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-bench-pg-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "\(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(description: "\(command.joined(separator: " ")) failed: \(text.suffix(500))")
        }
        return text
    }
}
