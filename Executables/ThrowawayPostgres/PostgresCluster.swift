import Foundation
import Synchronization

/// A throwaway PostgreSQL 15 server: one cluster in a folder of its own (a temporary one unless given),
/// started on a free port with its socket in that folder, stopped and removed by `stop()` or when the
/// process exits, also after failures. The tests share one (`shared`, each test making a database of
/// its own with `database(named:)`); `fleet-bench` starts its own, durable as the stores it is
/// compared with.
///
/// `initdb` refuses to run as root, so as root the cluster runs as the `postgres` user (the folder
/// is handed to it).
public final class PostgresCluster: Sendable {
    /// Where Debian's `postgresql-15` puts the server binaries.
    public static let binaries = "/usr/lib/postgresql/15/bin"

    /// The user the cluster's superuser is called (and clients connect as), with trust authentication.
    public static let user = "fleet"

    /// Whether the PostgreSQL binaries are installed (`make setup` installs them).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: binaries + "/initdb")
    }

    /// Why PostgreSQL tests are skipped, for `.enabled(if:)` messages.
    public static let missingMessage = "PostgreSQL 15 is not installed (\(binaries)/initdb): run `make setup`"

    /// What a commit survives before the server acknowledges it.
    public enum Durability: Sendable {
        /// Nothing: no fsync and no synchronous commit, for tests of logic.
        case none
        /// A stop of the server as by a crash: a commit is acknowledged once its WAL reached the kernel
        /// (`synchronous_commit` on), still without fsync.
        case serverCrash
        /// A crash of the machine: PostgreSQL's own settings (`fsync` and `synchronous_commit` on), as
        /// the durable stores a benchmark compares it with.
        case machineCrash

        var serverOptions: String {
            switch self {
            case .none: "-c fsync=off -c full_page_writes=off -c synchronous_commit=off"
            case .serverCrash: "-c fsync=off -c full_page_writes=off"
            case .machineCrash: ""
            }
        }
    }

    /// The test process's cluster, started on first use; nil when PostgreSQL is not installed. A
    /// cluster that is installed but fails to start is a failure of each test that asks for it (with
    /// the server's log), not a skip and not a crash of the whole test process; the start is tried
    /// again by the next test, up to three times.
    public static var shared: PostgresCluster? {
        get throws {
            guard isInstalled else { return nil }
            return try sharedState.withLock { state in
                if let cluster = state.cluster { return cluster }
                guard state.attempts < 3 else {
                    throw CommandFailed(command: "starting the test PostgreSQL cluster (3 attempts)", output: state.lastError)
                }
                state.attempts += 1
                do {
                    let cluster = try PostgresCluster()
                    state.cluster = cluster
                    return cluster
                } catch {
                    state.lastError = "\(error)"
                    throw error
                }
            }
        }
    }

    private static let sharedState = Mutex<(cluster: PostgresCluster?, attempts: Int, lastError: String)>((nil, 0, ""))

    /// A cluster of the caller's own (the tests that stop and start their server) that keeps every
    /// acknowledged commit through a stop as by a crash (`Durability.serverCrash`).
    /// With `passwordsOverTCP`, connections over TCP must give their role's password (SCRAM);
    /// the cluster's own tools still connect through its socket without one.
    public static func makePrivate(passwordsOverTCP: Bool = false) throws -> PostgresCluster {
        try PostgresCluster(durability: .serverCrash, passwordsOverTCP: passwordsOverTCP)
    }

    /// The folder holding the data directory, the socket and the log.
    public let folder: String
    /// The port it listens on.
    public let port: Int
    /// The address it listens on, which clients name in their URLs.
    public let host: String
    private let runAsPostgres: Bool
    private let launcher: [String]
    private let databases = Mutex(0)

    /// How the server is started: on `host`, its socket in the folder, the durability asked for.
    private let serverOptions: String

    /// Starts a new cluster. `listen` is the address it listens on; `trustedClients`, a network (CIDR)
    /// whose clients it trusts besides loopback; `launcher`, a command the server is started through
    /// (`fleet-bench nodes` starts it in a network namespace and CPU quota of its own); `folder`, where
    /// it goes (made, or emptied first).
    public init(durability: Durability = .none, listen: String = "127.0.0.1", trustedClients: String? = nil,
                passwordsOverTCP: Bool = false, launcher: [String] = [], folder: String? = nil) throws {
        serverOptions = "-c listen_addresses=\(listen) -c max_connections=200 " + durability.serverOptions
        runAsPostgres = getuid() == 0
        host = listen
        self.launcher = launcher
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("fleet-pg-\(UUID().uuidString.prefix(8))").path
        self.folder = folder
        Self.removeAbandonedClusters(asPostgres: runAsPostgres)
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try String(getpid()).write(toFile: folder + "/owner.pid", atomically: true, encoding: .utf8)
        if runAsPostgres {
            try Self.run("/bin/chown", ["postgres:postgres", folder])
        }
        let hostAuthentication = passwordsOverTCP ? "scram-sha-256" : "trust"
        do {
            try Self.run(Self.binaries + "/initdb", ["-D", folder + "/data", "-U", Self.user, "--auth-local=trust",
                                                     "--auth-host=\(hostAuthentication)", "-E", "UTF8",
                                                     "--no-locale", "--no-sync"], asPostgres: runAsPostgres)
            if let trustedClients, let hba = FileHandle(forWritingAtPath: folder + "/data/pg_hba.conf") {
                hba.seekToEndOfFile()
                hba.write(Data("host all all \(trustedClients) \(hostAuthentication)\n".utf8))
                try? hba.close()
            }
            var started: Int?
            var lastError: (any Error)?
            for _ in 0..<5 where started == nil {
                let candidate = try Self.freePorts(1)[0]
                do {
                    try Self.run(Self.binaries + "/pg_ctl", [
                        "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "30", "-o",
                        "-p \(candidate) -k \(folder) \(serverOptions)",
                        "start",
                    ], asPostgres: runAsPostgres, launcher: launcher)
                    started = candidate
                } catch {
                    lastError = error
                }
            }
            guard let started else { throw lastError ?? CommandFailed(command: "pg_ctl start", output: "") }
            port = started
        } catch let failure as CommandFailed {
            // The server's own words say why it did not start: keep them before the folder goes.
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)).map { String($0.suffix(2000)) } ?? "(no log)"
            _ = try? Self.run(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: runAsPostgres)
            try? FileManager.default.removeItem(atPath: folder)
            throw CommandFailed(command: failure.command, output: failure.output + "\n--- server log\n" + log)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        ClusterExit.register(self)
    }

    /// `postgres://fleet@HOST:PORT/NAME` for a new, empty database (the name made unique).
    public func database(named label: String) throws -> String {
        let cleaned = label.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        let number = databases.withLock { count in
            count += 1
            return count
        }
        let name = "t\(number)_" + String(cleaned.prefix(40))
        return try createDatabase(name)
    }

    /// The URL of database `name` (which need not exist).
    public func url(database name: String) -> String {
        "postgres://\(Self.user)@\(host):\(port)/\(name)"
    }

    /// Database `name`'s URL through the server's socket in `folder`, which reaches it from any
    /// network namespace.
    public func socketURL(database name: String) -> String {
        let encoded = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        return "postgres://\(Self.user)@\(encoded):\(port)/\(name)"
    }

    /// libpq's connection string for database `name`.
    public func conninfo(database name: String) -> String { "host=\(host) port=\(port) user=\(Self.user) dbname=\(name)" }

    /// The server's first process (`postmaster.pid`), whose children are its backends; nil if unreadable.
    public var postmaster: Int32? {
        let file = (try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        return file.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// Creates database `name` (named as given) if it does not exist yet; returns its URL.
    @discardableResult
    public func createDatabase(_ name: String) throws -> String {
        do {
            try Self.run(Self.binaries + "/createdb", ["-h", folder, "-p", String(port), "-U", Self.user, name])
        } catch let failure as CommandFailed where failure.output.contains("already exists") {
        }
        return url(database: name)
    }

    /// Runs SQL through `psql` as the superuser, in database `database`; returns what it printed.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run(Self.binaries + "/psql", ["-h", folder, "-p", String(port), "-U", Self.user, "-d", database,
                                               "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    /// Stops the server at once (as a crash would), for tests of lost connections.
    public func stopImmediately() throws {
        try Self.run(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: runAsPostgres)
    }

    /// Starts the server again after `stopImmediately`, on the same port.
    public func start() throws {
        try Self.run(Self.binaries + "/pg_ctl", [
            "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "30", "-o",
            "-p \(port) -k \(folder) \(serverOptions)",
            "start",
        ], asPostgres: runAsPostgres, launcher: launcher)
    }

    /// Stops the server (letting its sessions end) and removes its folder.
    public func stop() {
        _ = try? Self.run(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"], asPostgres: runAsPostgres)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops the server at once and removes its folder (at process exit).
    fileprivate func destroy() {
        guard FileManager.default.fileExists(atPath: folder) else { return }
        _ = try? Self.run(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: runAsPostgres)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `count` loopback TCP ports nobody listened on a moment ago (all held at once, so distinct).
    public static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw CommandFailed(command: "socket()", output: String(cString: strerror(errno))) }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else { throw CommandFailed(command: "bind()", output: String(cString: strerror(errno))) }
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw CommandFailed(command: "getsockname()", output: String(cString: strerror(errno))) }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    /// Runs a command to its end (as `postgres` when asked, through `launcher` when given, which goes
    /// before the command and `runuser`); throws with its output when it fails. The output goes
    /// through a file, not a pipe: `pg_ctl start` leaves the server running, and a server holding the
    /// write end of a pipe would keep the reader waiting for ever.
    @discardableResult
    public static func run(_ path: String, _ arguments: [String], asPostgres: Bool = false, launcher: [String] = []) throws -> String {
        let command = launcher + (asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments)
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-pg-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        // posix_spawn and waitpid rather than Foundation's Process, whose wait never returned for a
        // `pg_ctl start` whose server lives on.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The child gets nothing else of this process's: a server started here would otherwise keep
        // other sockets open (their peers never see them close), and PostgreSQL refuses to start
        // when the descriptors it inherited leave it too few ("System allows 21, we need at least 58").
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw CommandFailed(command: command.joined(separator: " "), output: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with status 0 (the wait status's low 7 bits are 0 for an exit).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw CommandFailed(command: command.joined(separator: " "), output: text)
        }
        return text
    }

    /// Stops and removes the clusters earlier processes left behind when they were killed
    /// (a crash or SIGKILL runs no exit handler): each folder names the process that made it.
    private static func removeAbandonedClusters(asPostgres: Bool) {
        let temporary = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix("fleet-pg-") {
            let folder = temporary + "/" + name
            guard let owner = try? String(contentsOfFile: folder + "/owner.pid", encoding: .utf8),
                  let pid = Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)),
                  kill(pid, 0) != 0 && errno == ESRCH else { continue }
            _ = try? run(binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: asPostgres)
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// A command that exited with a failure.
    public struct CommandFailed: Error, CustomStringConvertible {
        public let command: String
        public let output: String

        public init(command: String, output: String) {
            self.command = command
            self.output = output
        }

        public var description: String { "`\(command)` failed: \(output)" }
    }
}

/// Stops the process's clusters when the process exits.
private enum ClusterExit {
    static let clusters = Mutex<[PostgresCluster]>([])

    static func register(_ cluster: PostgresCluster) {
        clusters.withLock { list in
            if list.isEmpty {
                atexit { ClusterExit.clusters.withLock { $0.forEach { $0.destroy() } } }
            }
            list.append(cluster)
        }
    }
}
