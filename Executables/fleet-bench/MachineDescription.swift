import Foundation
import APIServer

/// What the figures of a run depend on, printed above them: rates and even ratios against nginx
/// differ between machines that call themselves the same (a virtual machine's "AMD EPYC" hides
/// which generation it runs on), and between runs on one machine when others share its cores.
struct MachineDescription {
    var cpu: String
    var cores: Int
    var kernel: String
    var loadAverage: String
    /// `/proc/stat`'s counters at the start, to tell the share of CPU time the hypervisor took
    /// from this machine during the run.
    var startTimes: CPUTimes?

    /// The machine as it is now.
    static func current() -> MachineDescription {
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
        return MachineDescription(cpu: cpuDescription(), cores: ProcessInfo.processInfo.activeProcessorCount,
                                  kernel: kernel, loadAverage: load, startTimes: CPUTimes.now())
    }

    /// The first processor of `/proc/cpuinfo`: its name, family, model and stepping (with AMD's core
    /// generation, which the name of a virtual CPU often leaves out), clock and cache, and whether
    /// a hypervisor runs it.
    static func cpuDescription() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("processor") && !fields.isEmpty { break }
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        var description = fields["model name"] ?? "unknown"
        if let family = fields["cpu family"].flatMap(Int.init), let model = fields["model"].flatMap(Int.init) {
            description += " (family \(family) model \(model)"
            if let stepping = fields["stepping"] { description += " stepping \(stepping)" }
            if fields["vendor_id"] == "AuthenticAMD", let generation = zenGeneration(family: family, model: model) { description += ", \(generation)" }
            description += ")"
        }
        if let mhz = fields["cpu MHz"].flatMap(Double.init) { description += String(format: ", %.0f MHz", mhz) }
        if let cache = fields["cache size"] { description += ", cache \(cache)" }
        if fields["flags"]?.split(separator: " ").contains("hypervisor") == true { description += ", virtual" }
        return description
    }

    /// AMD's core generation for a family and model (AMD's published numbering), nil when unknown.
    static func zenGeneration(family: Int, model: Int) -> String? {
        switch (family, model) {
        case (23, 0..<0x30): "Zen/Zen+"
        case (23, _): "Zen 2"
        case (25, 0..<0x10), (25, 0x20..<0x60): "Zen 3"
        case (25, _): "Zen 4"
        case (26, _): "Zen 5"
        default: nil
        }
    }

    /// The rows printed above the figures.
    func rows(stolenSinceStart: Double?) -> [BenchmarkRow] {
        let loads = loadAverage.split(separator: " ").compactMap { Double($0) }.map { Figure.plain($0, decimals: 2) }
        let loadNote = "1, 5 and 15 minutes; figures of a loaded machine are low and vary"
        var rows = [
            BenchmarkRow(note: "CPU", comparison: cpu),
            BenchmarkRow(name: "cores", value: .count(cores), comparison: "fleet-admin serve threads: \(ServeOptions.defaultThreads) (its default); wrk -t2 -c\(HTTPBenchmarks.connections)"),
            BenchmarkRow(note: "kernel", comparison: kernel),
            loads.first.map { BenchmarkRow(name: "load average at start", value: $0, also: Array(loads.dropFirst()), comparison: loadNote) }
                ?? BenchmarkRow(note: "load average at start", comparison: "\(loadAverage); \(loadNote)"),
        ]
        if let stolenSinceStart {
            rows.append(BenchmarkRow(name: "CPU time stolen by the hypervisor", value: .percent(stolenSinceStart * 100, decimals: 1),
                                     comparison: "during the run (/proc/stat steal): other guests on the same host"))
        }
        return rows
    }
}

/// The machine's CPU time counters (`/proc/stat`'s first line), in clock ticks.
struct CPUTimes {
    var total: UInt64
    var steal: UInt64
    /// Idle and waiting for I/O: time no process wanted a core for.
    var idle: UInt64 = 0

    static func now() -> CPUTimes? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let values = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard values.count >= 8 else { return nil }
        // user nice system idle iowait irq softirq steal (guest times are already in user and nice).
        return CPUTimes(total: values.prefix(8).reduce(0, +), steal: values[7], idle: values[3] + values[4])
    }

    /// The share of the CPU time since `start` that was stolen.
    func stolen(since start: CPUTimes) -> Double {
        total > start.total ? Double(steal - start.steal) / Double(total - start.total) : 0
    }

    /// The share of the CPU time since `start` that was idle: near 0 when a load was bound by the
    /// machine's cores, higher when its processes waited on each other.
    func idle(since start: CPUTimes) -> Double {
        total > start.total ? Double(idle - start.idle) / Double(total - start.total) : 0
    }
}
