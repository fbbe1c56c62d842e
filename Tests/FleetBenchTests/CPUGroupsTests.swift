@testable import fleet_bench
import Foundation
import Testing

/// What `CPUGroups` writes to give `fleet-bench nodes`' machines their quotas, under either cgroup
/// version, on a folder laid out as that version's file system is: a host mounts one of them, so
/// the other's path is otherwise never run. The kernel makes a group's files itself; here they are
/// made empty beforehand.
struct CPUGroupsTests {
    @Test func version2HandsTheCpuControllerDownAndWritesCpuMax() throws {
        let mount = try Self.folder(files: ["cgroup.subtree_control", "run/cgroup.subtree_control", "run/cpu.max", "run/cpu.weight",
                                            "run/node1/cpu.max", "run/db/cpu.max"])
        defer { try? FileManager.default.removeItem(atPath: mount) }
        try "cpuset cpu io memory pids\n".write(toFile: mount + "/cgroup.controllers", atomically: true, encoding: .utf8)

        let groups = try #require(CPUGroups.find(mount: mount))
        #expect(groups.version2 && groups.root == mount)
        try groups.makeGroup("run", quota: nil)
        try groups.favour("run")
        try groups.makeGroup(groups.path("run", "node1"), quota: 0.2)
        try groups.makeGroup(groups.path("run", "db"), quota: nil)

        #expect(try Self.read(mount, "cgroup.subtree_control") == "+cpu")
        #expect(try Self.read(mount, "run/cgroup.subtree_control") == "+cpu")
        #expect(try Self.read(mount, "run/cpu.max") == "max 100000")
        #expect(try Self.read(mount, "run/cpu.weight") == "1000")
        #expect(try Self.read(mount, "run/node1/cpu.max") == "20000 100000")
        #expect(try Self.read(mount, "run/db/cpu.max") == "max 100000")
    }

    @Test func version1WritesThePeriodTheQuotaAndTheShares() throws {
        let mount = try Self.folder(files: ["cpu,cpuacct/cpu.cfs_quota_us", "cpu,cpuacct/run/cpu.cfs_period_us", "cpu,cpuacct/run/cpu.cfs_quota_us",
                                            "cpu,cpuacct/run/cpu.shares", "cpu,cpuacct/run/node1/cpu.cfs_period_us",
                                            "cpu,cpuacct/run/node1/cpu.cfs_quota_us"])
        defer { try? FileManager.default.removeItem(atPath: mount) }

        let groups = try #require(CPUGroups.find(mount: mount))
        #expect(!groups.version2 && groups.root == mount + "/cpu,cpuacct")
        try groups.makeGroup("run", quota: nil)
        try groups.favour("run")
        try groups.makeGroup(groups.path("run", "node1"), quota: 0.35)

        #expect(try Self.read(mount, "cpu,cpuacct/run/cpu.cfs_period_us") == "100000")
        #expect(try Self.read(mount, "cpu,cpuacct/run/cpu.cfs_quota_us") == "-1")
        #expect(try Self.read(mount, "cpu,cpuacct/run/cpu.shares") == "10240")
        #expect(try Self.read(mount, "cpu,cpuacct/run/node1/cpu.cfs_period_us") == "100000")
        #expect(try Self.read(mount, "cpu,cpuacct/run/node1/cpu.cfs_quota_us") == "35000")
    }

    @Test func aVersion2RootWithoutTheCpuControllerAndNoVersion1HierarchyIsNoCPUGroups() throws {
        let mount = try Self.folder(files: [])
        defer { try? FileManager.default.removeItem(atPath: mount) }
        try "memory pids\n".write(toFile: mount + "/cgroup.controllers", atomically: true, encoding: .utf8)
        #expect(CPUGroups.find(mount: mount) == nil)
    }

    @Test func aFileTheKernelDidNotMakeIsAnError() throws {
        let mount = try Self.folder(files: [])
        defer { try? FileManager.default.removeItem(atPath: mount) }
        let groups = CPUGroups(root: mount, version2: true)
        #expect(throws: NodeMachines.Unavailable.self) { try groups.makeGroup("run", quota: 0.2) }
    }

    /// A fresh folder with empty `files` (paths inside it).
    private static func folder(files: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cpu-groups-\(UUID().uuidString)").path
        for file in files {
            let path = "\(folder)/\(file)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func read(_ mount: String, _ file: String) throws -> String {
        try String(contentsOfFile: "\(mount)/\(file)", encoding: .utf8)
    }
}
