import Foundation
import Synchronization
import ThrowawayPostgres

/// Machines in miniature for `fleet-bench nodes`: PostgreSQL, the load generator and each server
/// node in a network namespace of its own, with an address from 198.18.0.0/15 (the range reserved
/// for benchmarks) on a veth link to a bridge in one more namespace, and a CPU quota of its own (a
/// cgroup: `cpu.max` under cgroup v2, `cpu.cfs_quota_us` under v1's cpu controller).
///
/// Everything a run makes is named after its process ID (`fleet-bench-nodes-PID…`): `stop()`
/// removes it, and the next run removes what a run that was killed left (its process is gone).
final class NodeMachines: Sendable {
    static let prefix = "fleet-bench-nodes-"
    /// The network of the machines, inside 198.18.0.0/15.
    static let network = "198.18.0.0/24"

    /// One machine: its namespace, address, CPU group and the command that runs a program on it.
    struct Machine: Sendable {
        var name: String
        var namespace: String
        var address: String
        var cgroup: String
        /// A script that runs its arguments in the machine's namespace and CPU group.
        var launcher: String
    }

    let run: String
    let folder: String
    let database: Machine
    let loadGenerator: Machine
    let nodes: [Machine]
    private let bridge: String
    private let cgroups: CPUGroups
    private let ip: String
    private let tc: String

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Why machines cannot be made here (not root, no `ip`/`tc`/`nsenter`, no namespaces, no CPU
    /// controller); nil when they can.
    static func unavailableReason() -> String? {
        guard getuid() == 0 else { return "network namespaces and CPU quotas need root" }
        for tool in ["ip", "tc", "nsenter"] where HTTPBenchmarks.which(tool) == nil {
            return "`\(tool)` is not installed (Debian iproute2 / util-linux)"
        }
        guard CPUGroups.find() != nil else { return "no cgroup CPU controller (neither cgroup v2 with cpu nor v1's cpu hierarchy under /sys/fs/cgroup)" }
        let probe = "\(prefix)\(getpid())-probe"
        do {
            _ = try PostgresCluster.run(HTTPBenchmarks.which("ip")!, ["netns", "add", probe])
            _ = try? PostgresCluster.run(HTTPBenchmarks.which("ip")!, ["netns", "del", probe])
        } catch {
            return "a network namespace could not be made: \(error)"
        }
        return nil
    }

    /// Makes the machines: `nodes` server nodes with `nodeQuota` CPUs each; PostgreSQL and the load
    /// generator with `databaseQuota` and `loadQuota` (nil: no limit).
    init(nodes count: Int, nodeQuota: Double, databaseQuota: Double?, loadQuota: Double?) throws {
        guard let ip = HTTPBenchmarks.which("ip"), let tc = HTTPBenchmarks.which("tc"), let nsenter = HTTPBenchmarks.which("nsenter"),
              let cgroups = CPUGroups.find() else { throw Unavailable(description: Self.unavailableReason() ?? "tools missing") }
        Self.clearLeftovers()
        self.ip = ip
        self.tc = tc
        self.cgroups = cgroups
        run = "\(Self.prefix)\(getpid())"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(run).path
        bridge = "\(run)-net"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let run = run, folder = folder
        func machine(_ name: String, _ host: Int) -> Machine {
            Machine(name: name, namespace: "\(run)-\(name)", address: "198.18.0.\(host)", cgroup: cgroups.path(run, name), launcher: "\(folder)/\(name).sh")
        }
        database = machine("db", 2)
        loadGenerator = machine("load", 3)
        nodes = (1...count).map { machine("node\($0)", 10 + $0) }
        do {
            try cgroups.makeGroup(run, quota: nil)
            try cgroups.favour(run)
            try Self.command(ip, ["netns", "add", bridge])
            try Self.command(ip, ["-n", bridge, "link", "add", "br0", "type", "bridge"])
            try Self.command(ip, ["-n", bridge, "link", "set", "br0", "up"])
            for (index, machine) in ([database, loadGenerator] + nodes).enumerated() {
                let quota = machine.name == "db" ? databaseQuota : machine.name == "load" ? loadQuota : nodeQuota
                try cgroups.makeGroup(machine.cgroup, quota: quota)
                try Self.command(ip, ["netns", "add", machine.namespace])
                try Self.command(ip, ["-n", bridge, "link", "add", "m\(index)", "type", "veth", "peer", "name", "eth0", "netns", machine.namespace])
                try Self.command(ip, ["-n", bridge, "link", "set", "m\(index)", "master", "br0", "up"])
                try Self.command(ip, ["-n", machine.namespace, "addr", "add", machine.address + "/24", "dev", "eth0"])
                try Self.command(ip, ["-n", machine.namespace, "link", "set", "eth0", "up"])
                try Self.command(ip, ["-n", machine.namespace, "link", "set", "lo", "up"])
                let script = """
                    #!/bin/sh
                    echo $$ > '\(machine.cgroup)/cgroup.procs' || exit 125
                    exec \(nsenter) --net=/run/netns/\(machine.namespace) -- "$@"

                    """
                _ = FileManager.default.createFile(atPath: machine.launcher, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Holds every packet between PostgreSQL and the nodes `milliseconds` in each direction
    /// (`tc netem` on both ends of PostgreSQL's link); 0 removes the delay.
    func setDatabaseDelay(milliseconds: Double) throws {
        for (namespace, device) in [(database.namespace, "eth0"), (bridge, "m0")] {
            if milliseconds > 0 {
                try Self.command(tc, ["-n", namespace, "qdisc", "replace", "dev", device, "root", "netem", "delay", String(format: "%.3fms", milliseconds)])
            } else {
                _ = try? PostgresCluster.run(tc, ["-n", namespace, "qdisc", "del", "dev", device, "root"])
            }
        }
    }

    /// Ends every process left in the machines, removes the namespaces (their veths go with them),
    /// the CPU groups and the folder.
    func stop() {
        Self.remove(run: run, ip: ip, cgroups: cgroups)
    }

    /// Removes what runs whose process is gone left behind.
    static func clearLeftovers() {
        guard let ip = HTTPBenchmarks.which("ip"), let cgroups = CPUGroups.find() else { return }
        var runs = Set<String>()
        let listed = (try? PostgresCluster.run(ip, ["netns", "list"])) ?? ""
        for line in listed.split(separator: "\n") {
            if let name = line.split(separator: " ").first, name.hasPrefix(prefix) { runs.insert(runName(String(name))) }
        }
        for name in cgroups.runs() where name.hasPrefix(prefix) { runs.insert(runName(name)) }
        let temporary = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(prefix) { runs.insert(runName(name)) }
        for run in runs {
            guard let pid = Int32(run.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0 else { continue }
            remove(run: run, ip: ip, cgroups: cgroups)
        }
    }

    /// `fleet-bench-nodes-PID` of `fleet-bench-nodes-PID-ROLE`.
    private static func runName(_ name: String) -> String {
        let rest = name.dropFirst(prefix.count)
        return prefix + rest.prefix { $0.isNumber }
    }

    private static func remove(run: String, ip: String, cgroups: CPUGroups) {
        let listed = (try? PostgresCluster.run(ip, ["netns", "list"])) ?? ""
        let namespaces = listed.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0 == run || $0.hasPrefix(run + "-") }
        // Processes first (in the namespaces and in the CPU groups), then what held them.
        for _ in 0..<50 {
            var pids = Set<Int32>()
            for namespace in namespaces {
                for pid in ((try? PostgresCluster.run(ip, ["netns", "pids", namespace])) ?? "").split(separator: "\n").compactMap({ Int32($0) }) { pids.insert(pid) }
            }
            pids.formUnion(cgroups.processes(run))
            pids.remove(getpid())
            if pids.isEmpty { break }
            for pid in pids { kill(pid, SIGKILL) }
            usleep(100_000)
        }
        for namespace in namespaces { _ = try? PostgresCluster.run(ip, ["netns", "del", namespace]) }
        cgroups.removeGroup(run)
        // Again while the run's other threads may still write into it (a signal stops the run midway).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(run).path
        for _ in 0..<20 where FileManager.default.fileExists(atPath: folder) {
            try? FileManager.default.removeItem(atPath: folder)
            usleep(50_000)
        }
    }

    /// Whether anything of run `run` is left: a namespace, a CPU group, a process in either, its folder.
    static func leftovers(run: String) -> [String] {
        var found: [String] = []
        if let ip = HTTPBenchmarks.which("ip") {
            found += ((try? PostgresCluster.run(ip, ["netns", "list"])) ?? "").split(separator: "\n")
                .compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0.hasPrefix(run) }
        }
        if let cgroups = CPUGroups.find() { found += cgroups.runs().filter { $0.hasPrefix(run) } }
        if FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent(run).path) { found.append("folder \(run)") }
        return found
    }

    private static func command(_ tool: String, _ arguments: [String]) throws {
        _ = try PostgresCluster.run(tool, arguments)
    }
}

/// CPU quotas: cgroup v2's `cpu.max` where its cpu controller is available, otherwise v1's cpu
/// hierarchy (`cpu.cfs_quota_us` over `cpu.cfs_period_us`).
struct CPUGroups: Sendable {
    let root: String
    let version2: Bool
    static let period = 100_000

    /// The CPU groups of the cgroup file system mounted at `mount`: v2 when its root lists the cpu
    /// controller (a unified hierarchy), else v1's cpu hierarchy; nil when neither is there.
    static func find(mount: String = "/sys/fs/cgroup") -> CPUGroups? {
        if let controllers = try? String(contentsOfFile: mount + "/cgroup.controllers", encoding: .utf8),
           controllers.split(whereSeparator: \.isWhitespace).contains("cpu") {
            return CPUGroups(root: mount, version2: true)
        }
        for root in [mount + "/cpu", mount + "/cpu,cpuacct"] where FileManager.default.fileExists(atPath: root + "/cpu.cfs_quota_us") {
            return CPUGroups(root: root, version2: false)
        }
        return nil
    }

    /// The folder of group `name` of run `run`.
    func path(_ run: String, _ name: String) -> String { "\(root)/\(run)/\(name)" }

    /// Names of the groups at the top (runs).
    func runs() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] }

    /// Makes group `path` (a run's name or a machine's folder) with at most `quota` CPUs.
    func makeGroup(_ path: String, quota: Double?) throws {
        let folder = path.hasPrefix("/") ? path : "\(root)/\(path)"
        if version2 {
            // The cpu controller must be handed down to the run's group and from it to the machines'.
            let parent = (folder as NSString).deletingLastPathComponent
            try? write("+cpu", to: parent + "/cgroup.subtree_control")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if version2 {
            try write(quota.map { "\(Int($0 * Double(Self.period))) \(Self.period)" } ?? "max \(Self.period)", to: folder + "/cpu.max")
        } else {
            try write(String(Self.period), to: folder + "/cpu.cfs_period_us")
            try write(quota.map { String(Int($0 * Double(Self.period))) } ?? "-1", to: folder + "/cpu.cfs_quota_us")
        }
    }

    /// Gives run `run`'s group ten times a process's weight (`cpu.shares` 10240, `cpu.weight` 1000):
    /// the group, which holds every machine of the run, competes with each other process of the
    /// host as one, so that without it a busy host would leave the machines a share of the CPU
    /// too small to reach their quotas. The quotas still cap each machine.
    func favour(_ run: String) throws {
        if version2 {
            try write("1000", to: "\(root)/\(run)/cpu.weight")
        } else {
            try write("10240", to: "\(root)/\(run)/cpu.shares")
        }
    }

    /// Processes in run `run`'s groups.
    func processes(_ run: String) -> [Int32] {
        let top = "\(root)/\(run)"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: top)) ?? []).map { "\(top)/\($0)" }.filter { isDirectory($0) } + [top]
        return names.flatMap { ((try? String(contentsOfFile: $0 + "/cgroup.procs", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) } }
    }

    /// Removes run `run`'s groups (their processes ended).
    func removeGroup(_ run: String) {
        let top = "\(root)/\(run)"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: top)) ?? [] where isDirectory("\(top)/\(name)") {
            for _ in 0..<20 where rmdir("\(top)/\(name)") != 0 && errno == EBUSY { usleep(50_000) }
        }
        rmdir(top)
    }

    private func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    private func write(_ text: String, to path: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw NodeMachines.Unavailable(description: "\(path) cannot be written")
        }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw NodeMachines.Unavailable(description: "writing '\(text)' to \(path): \(error)")
        }
    }
}
