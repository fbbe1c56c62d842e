import FleetTestSupport
import Foundation
import Testing

/// Runs the built `fleet-bench nodes` very briefly (1 and 2 nodes, a second a load): it makes a
/// network namespace and a CPU quota for PostgreSQL, wrk and each `fleet-admin serve` node, and
/// removes all of them afterwards. Where namespaces cannot be made (not root), it says so and
/// exits 2. One test at a time: each run's machines take their share of the cores.
@Suite(.serialized)
struct FleetBenchNodesTests {
    @Test(.enabled(if: NodesMachine.canMakeNamespaces, "needs root, ip/tc/nsenter, a cgroup CPU controller, PostgreSQL 15 and wrk (make setup)"))
    func aShortRunPrintsTheRatiosAndLeavesNothingBehind() throws {
        let result = try BinaryRunner(product: "fleet-bench").run(
            ["nodes", "--json", "--nodes", "1,2", "--seconds", "1", "--delay-ms", "0.5"], timeout: 120)
        #expect(result.status == 0, "\(result)")
        let line = try #require(result.output.split(separator: "\n").last, "\(result)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect((figures["twoNodesRatio"] as? Double ?? 0) > 0, "\(line)")
        // Four nodes were not asked for: the key is there, with null.
        #expect(figures["fourNodesRatio"] is NSNull, "\(line)")
        #expect((figures["delayRatio"] as? Double ?? 0) > 0, "\(line)")
        #expect((figures["commitsPerTransaction"] as? Double ?? 0) > 0, "\(line)")
        #expect((figures["getTripRate2"] as? Double ?? 0) > 0, "\(line)")
        #expect(figures["getTripErrors1"] as? Int == 0 && figures["updateVehicleErrors2"] as? Int == 0, "\(line)")

        // Nothing of the run is left: namespaces, CPU groups, processes, its folder.
        let run = try #require(result.error.firstMatch(of: /fleet-bench-nodes-[0-9]+/).map { String($0.output) }, "\(result.error)")
        #expect(try NodesMachine.leftovers(of: run).isEmpty)
    }

    @Test(.enabled(if: NodesMachine.canMakeNamespaces, "needs root, ip/tc/nsenter, a cgroup CPU controller, PostgreSQL 15 and wrk (make setup)"))
    func theNextRunRemovesWhatAKilledRunLeft() throws {
        // A run killed (SIGKILL) once its machines are up leaves them behind…
        let executable = try BinaryRunner.locate("fleet-bench")
        let killed = Process()
        killed.executableURL = executable
        killed.arguments = ["nodes", "--nodes", "1", "--seconds", "1", "--delay-ms", "0"]
        let errors = Pipe()
        killed.standardOutput = FileHandle.nullDevice
        killed.standardError = errors
        try killed.run()
        var said = ""
        while !said.contains("machines up in"), killed.isRunning {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let run = try #require(said.firstMatch(of: /fleet-bench-nodes-[0-9]+/).map { String($0.output) }, "\(said)")
        #expect(try !NodesMachine.leftovers(of: run).isEmpty)
        // …and the next run removes them before making its own.
        let next = try BinaryRunner(product: "fleet-bench").run(["nodes", "--nodes", "1", "--seconds", "1", "--delay-ms", "0"], timeout: 120)
        #expect(next.status == 0, "\(next)")
        #expect(try NodesMachine.leftovers(of: run).isEmpty)
    }

    @Test func whereNamespacesCannotBeMadeItSaysWhyAndExits2() throws {
        let executable = try BinaryRunner.locate("fleet-bench")
        let process = Process()
        let errors = Pipe()
        if getuid() == 0 {
            // Root here: run it as nobody, who may make neither namespaces nor CPU groups.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path, "nodes", "--json"]
        } else {
            process.executableURL = executable
            process.arguments = ["nodes", "--json"]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(said)")
        #expect(said.hasPrefix("fleet-bench nodes: skipped: ") && said.contains("root"), "\(said)")
    }
}

enum NodesMachine {
    static var canMakeNamespaces: Bool {
        getuid() == 0 && PostgresCluster.isInstalled
            && ["/usr/bin/wrk", "/usr/bin/nsenter"].allSatisfy(FileManager.default.isExecutableFile)
            && ["/usr/sbin/ip", "/sbin/ip", "/bin/ip"].contains(where: FileManager.default.isExecutableFile)
            && ["/sys/fs/cgroup/cgroup.controllers", "/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us"]
                .contains(where: FileManager.default.fileExists)
    }

    /// What is left of run `run`: its namespaces, CPU groups, folder and processes.
    static func leftovers(of run: String) throws -> [String] {
        var found = try shell("ip netns list").split(separator: "\n").map(String.init).filter { $0.hasPrefix(run) }
        for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"] where FileManager.default.fileExists(atPath: "\(root)/\(run)") {
            found.append("\(root)/\(run)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(run).path
        if FileManager.default.fileExists(atPath: folder) { found.append(folder) }
        found += ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { entry in
            // Its command line (PostgreSQL's folder) or its CPU group (every machine's process) names the run.
            guard Int32(entry) != nil else { return false }
            return ["cmdline", "cgroup"].contains { file in
                FileManager.default.contents(atPath: "/proc/\(entry)/\(file)").map { String(decoding: $0, as: UTF8.self).contains(run) } ?? false
            }
        }.map { "process \($0)" }
        return found
    }

    static func shell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }
}
