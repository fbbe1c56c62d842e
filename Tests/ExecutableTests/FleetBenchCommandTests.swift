import FleetTestSupport
import Foundation
import Testing

/// `fleet-bench`'s command line: its groups are subcommands (help lists them, an unknown one is a usage
/// error naming them all), and a group's `--json` is one line whose rows carry numbers and units.
struct FleetBenchCommandTests {
    @Test func anUnknownGroupIsAUsageErrorListingTheGroups() throws {
        let result = try BinaryRunner(product: "fleet-bench").run(["nosuchgroup"])
        #expect(result.status == 2, "\(result)")
        // Nothing is measured: no machine header, no table.
        #expect(result.output.isEmpty, "\(result)")
        #expect(result.error.hasPrefix("fleet-bench: unknown group 'nosuchgroup'"), "\(result.error)")
        for group in ["geo", "eta-rows", "store", "engine", "http", "grpc", "deliveries", "postgres", "failover", "nodes", "watch", "soak", "eta"] {
            #expect(result.error.contains(" \(group),") || result.error.contains(" \(group)."), "\(group) is not listed: \(result.error)")
        }
        let near = try BinaryRunner(product: "fleet-bench").run(["stor"])
        #expect(near.status == 2 && near.error.contains("did you mean 'store'?"), "\(near)")
    }

    @Test func helpListsTheGroupsAndAGroupsHelpItsOptions() throws {
        let help = try BinaryRunner(product: "fleet-bench").run(["--help"])
        #expect(help.status == 0, "\(help)")
        for group in ["geo", "store", "deliveries", "failover", "nodes", "soak", "eta"] {
            #expect(help.output.contains("\n  \(group) "), "\(group) is not listed: \(help.output)")
        }
        let soak = try BinaryRunner(product: "fleet-bench").run(["soak", "--help"])
        #expect(soak.status == 0 && soak.output.contains("--seconds <seconds>") && soak.output.contains("--json"), "\(soak)")
    }

    @Test func aBadValueOfAGroupsOptionIsAUsageErrorBeforeAnythingRuns() throws {
        for arguments in [["soak", "--seconds", "5"], ["deliveries", "long"], ["nodes", "--nodes", "2,4"], ["failover", "--writers", "0"]] {
            let result = try BinaryRunner(product: "fleet-bench").run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.output.isEmpty && !result.error.contains("running "), "\(arguments): \(result)")
        }
    }

    /// eta-rows measures in a few seconds (100 simulated drives; the mopsi drives only where `make traces` fetched them).
    @Test func aGroupsJSONIsOneLineWithNumericRows() throws {
        let result = try BinaryRunner(product: "fleet-bench").run(["eta-rows", "--json"], timeout: 300)
        #expect(result.status == 0, "\(result)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1, "\(result.output)")
        let line = try #require(lines.first, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(object["group"] as? String == "eta-rows", "\(line)")
        let rows = try #require(object["rows"] as? [[String: Any]], "\(line)")
        let simulated = try #require(rows.first { ($0["name"] as? String)?.contains("100 simulated town drives") == true }, "\(line)")
        #expect(simulated["status"] as? String == "measured", "\(line)")
        #expect(simulated["unit"] as? String == "%" && simulated["statistic"] as? String == "median", "\(line)")
        let median = try #require(simulated["value"] as? Double, "\(line)")
        let p90 = try #require((simulated["also"] as? [[String: Any]])?.first?["value"] as? Double, "\(line)")
        #expect(median > 0 && p90 >= median, "\(line)")
        // The table shows the same row by its name.
        let table = try BinaryRunner(product: "fleet-bench").run(["eta-rows"], timeout: 300)
        #expect(table.status == 0, "\(table)")
        #expect(table.output.contains("ETA error > 2 min, median/p90: 100 simulated town drives (100)"), "\(table.output)")
        #expect(table.output.contains("— machine") && table.output.contains("— ETA accuracy"), "\(table.output)")
    }
}
