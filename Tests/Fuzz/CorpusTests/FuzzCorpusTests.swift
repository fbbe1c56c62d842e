import FleetFuzzTargets
import FleetTestSupport
import Foundation
import Testing

/// Every fuzz target over its committed corpus (`Tests/Fuzz/corpus/<target>/`): the seeds, and each
/// input libFuzzer ever found a crash with, which stays there as a regression. Each runs in its own
/// `fleet-fuzz` process, so a crash fails one test instead of ending the run.
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus")

    @Test(arguments: FuzzTarget.all.map(\.name))
    func everyCorpusInputRunsWithoutACrash(target: String) throws {
        let folder = Self.corpus.appendingPathComponent(target).path
        let inputs = try FuzzCorpus.inputs(at: [folder])
        #expect(inputs.count >= 3, "\(target) has \(inputs.count) seeds in \(folder)")
        let run = try BinaryRunner(product: "fleet-fuzz").run([target, folder])
        #expect(run.status == 0, "\(target): \(run)")
        #expect(run.output.contains("\(inputs.count) inputs, no crash"), "\(run)")
    }

    @Test func everyCorpusFolderNamesATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(Set(folders) == Set(FuzzTarget.all.map(\.name)))
    }
}
