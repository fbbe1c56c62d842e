import FleetTestSupport
import Foundation
import Testing

/// Runs the built `fleet-bench deliveries short` (one round of 640 calls of each method against a real
/// `fleet-admin serve`): every call answers 200 and gets a CPU figure, and both ratios are printed.
struct FleetBenchDeliveriesTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/h2load"), "needs h2load (make setup installs nghttp2-client)"))
    func aShortRunPrintsEachCallsCPUAndBothRatios() throws {
        let result = try BinaryRunner(product: "fleet-bench").run(["deliveries", "short"], timeout: 180)
        #expect(result.status == 0, "\(result)")
        let lines = result.output.split(separator: "\n")
        for call in ["GetTrip", "GetTaskTrackingInfo, last of 20 stops", "UpdateVehicle (location)", "UpdateDeliveryVehicle (location), 20 stops"] {
            let line = try #require(lines.first { $0.hasPrefix("\(call): server CPU per call") }, "\(result.output)")
            // "… 42.1 µs  640 calls a round, …": a figure, not "failed" (an answer that was not 200 fails the row).
            #expect(line.contains(" µs ") && line.contains("640 calls a round"), "\(line)")
        }
        for ratio in ["GetTaskTrackingInfo / GetTrip", "UpdateDeliveryVehicle / UpdateVehicle"] {
            let line = try #require(lines.first { $0.hasPrefix("\(ratio), server CPU per call") }, "\(result.output)")
            let value = line.split(separator: " ", omittingEmptySubsequences: true).first { Double($0) != nil }.flatMap { Double($0) }
            #expect((value ?? 0) > 0 && line.contains("aim <= 1.00"), "\(line)")
        }
    }
}
