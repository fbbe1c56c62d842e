import FleetTestSupport
import Testing

/// Every product executable answers `--version` with its name and the one product version, exit 0.
struct VersionTests {
    @Test(arguments: ["fleet-admin", "driver-report", "consumer-follow", "error-explain", "fleet-bench"])
    func everyExecutableAnswersVersion(executable: String) throws {
        let result = try BinaryRunner(product: executable).run(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.hasPrefix("\(executable) "), "\(result.output)")
        #expect(result.output.split(separator: " ").count == 2, "\(result.output)")
    }
}
