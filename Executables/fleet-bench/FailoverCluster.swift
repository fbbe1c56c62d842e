import FleetConcurrency
import Foundation
import ThrowawayPostgres

/// The PostgreSQL cluster docs/operations.md runs, in miniature: one etcd and two Patroni members,
/// each a PostgreSQL 15 server, the primary with a synchronous standby; all on loopback, on free
/// ports, in a temporary folder, for `fleet-bench failover` (and the test that runs it).
///
/// As root the members run as the `postgres` user (PostgreSQL refuses root). `stop()` stops
/// everything and removes the folder; a run killed before it could (SIGKILL) leaves its folder
/// naming its process, and the next run stops what that one left and removes it.
final class FailoverCluster: @unchecked Sendable {
    /// One Patroni member and the PostgreSQL server it runs.
    struct Member {
        let name: String
        let folder: String
        /// PostgreSQL's port.
        let port: Int
        /// Patroni's REST API port.
        let apiPort: Int
        var configPath: String { folder + "/patroni.yml" }
    }

    /// The members' state as `patronictl list` shows it.
    struct MemberState: Equatable {
        var name: String
        var role: String
        var state: String
        var timeline: Int
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The database the nodes use.
    static let database = "fleet"
    /// PostgreSQL's superuser, replication and rewind user (trust authentication on loopback).
    static let user = "fleet"
    static var isInstalled: Bool {
        PostgresCluster.isInstalled && ["/usr/bin/patroni", "/usr/bin/patronictl", "/usr/bin/etcd"].allSatisfy(FileManager.default.isExecutableFile)
    }

    let folder: String
    let members: [Member]
    private let etcdPort: Int
    private let asPostgres: Bool
    private let lock = Lock()
    private var processes: [Process] = []
    private var stopped = false

    /// Starts etcd and both members and waits until one leads with the other as its synchronous
    /// standby, then creates the `fleet` database.
    init() throws {
        asPostgres = getuid() == 0
        Self.removeAbandoned(asPostgres: asPostgres)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-failover-\(getpid())").path
        self.folder = folder
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try String(getpid()).write(toFile: folder + "/owner.pid", atomically: true, encoding: .utf8)
        let ports = try PostgresCluster.freePorts(6)
        etcdPort = ports[0]
        members = (1...2).map { index in
            Member(name: "m\(index)", folder: "\(folder)/m\(index)", port: ports[2 * index], apiPort: ports[2 * index + 1])
        }
        do {
            try startEtcd(peerPort: ports[1])
            for member in members {
                try FileManager.default.createDirectory(atPath: member.folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try config(for: member).write(toFile: member.configPath, atomically: true, encoding: .utf8)
                if asPostgres { _ = try PostgresCluster.run("/bin/chown", ["-R", "postgres:postgres", member.folder]) }
                try startPatroni(member)
            }
            try waitUntilHealthy(timeout: 90)
            _ = try PostgresCluster.run(PostgresCluster.binaries + "/createdb", ["-h", "127.0.0.1", "-p", String(try leader().port),
                                                                           "-U", Self.user, Self.database])
            try waitForDatabaseOnEveryMember(timeout: 60)
        } catch {
            let logs = members.map { "\($0.name): " + Self.tail($0.folder + "/patroni.log") }.joined(separator: " || ")
            stop()
            throw Failure(description: "\(error); Patroni's logs end: \(logs)")
        }
    }

    /// The URL server nodes reach the cluster with: every member, libpq picking the one that takes
    /// writes, and giving up on a host after 2 s.
    var storeURL: String {
        "postgres://\(Self.user)@" + members.map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
            + "/\(Self.database)?target_session_attrs=read-write&connect_timeout=2"
    }

    /// The member's Patroni configuration: what docs/operations.md gives, on this run's ports.
    func config(for member: Member) -> String {
        """
        scope: fleet
        name: \(member.name)
        restapi:
          listen: 127.0.0.1:\(member.apiPort)
          connect_address: 127.0.0.1:\(member.apiPort)
        etcd3:
          hosts: 127.0.0.1:\(etcdPort)
        bootstrap:
          dcs:
            ttl: 20
            loop_wait: 2
            retry_timeout: 5
            maximum_lag_on_failover: 0
            synchronous_mode: true
            primary_start_timeout: 0
            postgresql:
              use_pg_rewind: true
              parameters:
                wal_log_hints: 'on'
                max_connections: 200
          initdb:
            - encoding: UTF8
            - no-locale
          pg_hba:
            - local all all trust
            - host all all 127.0.0.1/32 trust
            - host replication all 127.0.0.1/32 trust
        postgresql:
          listen: 127.0.0.1:\(member.port)
          connect_address: 127.0.0.1:\(member.port)
          data_dir: \(member.folder)/data
          bin_dir: \(PostgresCluster.binaries)
          pgpass: \(member.folder)/pgpass
          authentication:
            superuser: {username: \(Self.user)}
            replication: {username: \(Self.user)}
            rewind: {username: \(Self.user)}
          parameters:
            unix_socket_directories: \(member.folder)

        """
    }

    // MARK: State

    /// Every member's role and state (`patronictl list`); empty when etcd cannot be asked.
    func states() -> [MemberState] {
        guard let output = try? PostgresCluster.run("/usr/bin/patronictl", ["-c", members[0].configPath, "list", "-f", "json"]),
              let start = output.firstIndex(of: "["),
              let rows = try? JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [[String: Any]] else { return [] }
        return rows.map { row in
            MemberState(name: row["Member"] as? String ?? "", role: row["Role"] as? String ?? "",
                        state: row["State"] as? String ?? "", timeline: row["TL"] as? Int ?? 0)
        }
    }

    /// Whether one member leads and the other follows as its synchronous standby, both running.
    func isHealthy() -> Bool {
        let states = states()
        return states.count == 2 && states.allSatisfy { $0.state == "running" }
            && states.contains { $0.role == "Leader" } && states.contains { $0.role == "Sync Standby" }
    }

    /// Waits until `isHealthy()`, at most `timeout` seconds.
    func waitUntilHealthy(timeout: Double) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !isHealthy() {
            guard Date() < deadline else {
                throw Failure(description: "the cluster did not reach a leader with a synchronous standby in \(Int(timeout)) s: \(states())")
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// Waits until every member has the database: libpq tries the next host of a URL only when one
    /// cannot be reached, not when it refuses the login, so a standby that has not yet replayed the
    /// `CREATE DATABASE` would fail a node's connection outright.
    private func waitForDatabaseOnEveryMember(timeout: Double) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        for member in members {
            while (try? PostgresCluster.run(PostgresCluster.binaries + "/psql", ["-h", "127.0.0.1", "-p", String(member.port), "-U", Self.user,
                                                                          "-d", Self.database, "-Atc", "SELECT 1"])) == nil {
                guard Date() < deadline else { throw Failure(description: "\(member.name) has no database \(Self.database) after \(Int(timeout)) s") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// The member that leads now.
    func leader() throws -> Member {
        guard let name = states().first(where: { $0.role == "Leader" })?.name, let member = members.first(where: { $0.name == name }) else {
            throw Failure(description: "no member leads: \(states())")
        }
        return member
    }

    // MARK: Faults

    /// `patronictl switchover` from the leader to the standby; returns once the command did.
    func switchover() throws {
        let leader = try leader()
        guard let candidate = members.first(where: { $0.name != leader.name }) else { throw Failure(description: "no candidate") }
        _ = try PostgresCluster.run("/usr/bin/patronictl", ["-c", leader.configPath, "switchover", "--leader", leader.name,
                                                         "--candidate", candidate.name, "--force"])
    }

    // MARK: Processes

    private func startEtcd(peerPort: Int) throws {
        let client = "http://127.0.0.1:\(etcdPort)", peer = "http://127.0.0.1:\(peerPort)"
        try launch("/usr/bin/etcd", ["--name", "e1", "--data-dir", folder + "/etcd",
                                     "--listen-client-urls", client, "--advertise-client-urls", client,
                                     "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                                     "--initial-cluster", "e1=\(peer)"], log: folder + "/etcd.log")
    }

    private func startPatroni(_ member: Member) throws {
        let command = asPostgres
            ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--", "/usr/bin/patroni", member.configPath]
            : ["/usr/bin/patroni", member.configPath]
        try launch(command[0], Array(command.dropFirst()), log: member.folder + "/patroni.log", home: member.folder)
    }

    private func launch(_ path: String, _ arguments: [String], log: String, home: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        if let home { process.environment = ProcessInfo.processInfo.environment.merging(["HOME": home]) { $1 } }
        try process.run()
        try? output.close()
        lock.withLock { processes.append(process) }
        // For the next run, should this one be killed before it stops them.
        let line = "\(process.processIdentifier)\n"
        if let handle = FileHandle(forWritingAtPath: folder + "/pids") ?? {
            FileManager.default.createFile(atPath: folder + "/pids", contents: nil)
            return FileHandle(forWritingAtPath: folder + "/pids")
        }() {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            try? handle.close()
        }
    }

    /// Stops Patroni (which stops its PostgreSQL), then etcd, and removes the folder. Safe to call
    /// more than once, from a signal handler's queue too.
    func stop() {
        let running = lock.withLock { () -> [Process] in
            guard !stopped else { return [] }
            stopped = true
            return processes
        }
        guard !running.isEmpty || FileManager.default.fileExists(atPath: folder) else { return }
        // Both Patronis at once (each stops its server), etcd (started first) last: Patroni without
        // etcd would wait on it.
        for group in [Array(running.dropFirst()), Array(running.prefix(1))] {
            for process in group where process.isRunning { process.terminate() }
            let deadline = Date(timeIntervalSinceNow: 20)
            while group.contains(where: \.isRunning) && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            for process in group where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        for member in members { Self.stopServer(dataDirectory: member.folder + "/data", asPostgres: asPostgres) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops a PostgreSQL server Patroni left running (Patroni killed), at once.
    private static func stopServer(dataDirectory: String, asPostgres: Bool) {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/postmaster.pid") else { return }
        _ = try? PostgresCluster.run(PostgresCluster.binaries + "/pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"], asPostgres: asPostgres)
    }

    /// Stops what earlier runs killed before their `stop()` left behind, and removes their folders.
    private static func removeAbandoned(asPostgres: Bool) {
        let temporary = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix("fleet-failover-") {
            let folder = temporary + "/" + name
            guard let owner = try? String(contentsOfFile: folder + "/owner.pid", encoding: .utf8),
                  let pid = Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)),
                  pid != getpid(), kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let pids = ((try? String(contentsOfFile: folder + "/pids", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
            for child in pids where isOurs(child, folder: folder) { kill(child, SIGKILL) }
            for member in ["m1", "m2"] { stopServer(dataDirectory: "\(folder)/\(member)/data", asPostgres: asPostgres) }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Whether process `pid` still is one this folder's run started (its command line names the folder).
    private static func isOurs(_ pid: Int32, folder: String) -> Bool {
        guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: command, as: UTF8.self).contains(folder)
    }

    private static func tail(_ path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no log)"
        return text.suffix(600).split(separator: "\n").joined(separator: " | ")
    }
}
