import FleetTestSupport
import Foundation
import Testing

/// Runs the built `fleet-bench failover` with a small load: it starts its own etcd, two Patroni
/// members (PostgreSQL 15, the primary with a synchronous standby) and two `fleet-admin serve`
/// nodes on loopback, with writers, a `:watch` on each node, driver-report and consumer-follow
/// running through them; kills the primary's postmaster, then switches over, and stops everything
/// (on failure and on SIGTERM too: the runner's time limit sends one).
@Suite(.enabled(if: FailoverPackages.areInstalled, "Patroni, etcd or PostgreSQL 15 is missing: run `make setup`"))
struct FleetBenchFailoverTests {
    @Test func aCrashAndASwitchoverOfThePrimaryLoseNoAcknowledgedWriteAndWritesResume() throws {
        let result = try BinaryRunner(product: "fleet-bench").run(
            ["failover", "--json", "--writers", "2", "--steady-seconds", "2"], timeout: 400)
        // Exit 0 only once writes were acknowledged again after each event.
        #expect(result.status == 0, "\(result)")
        let line = try #require(result.output.split(separator: "\n").last, "\(result)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(figures["acknowledgedWritesLost"] as? Int == 0, "\(line)")
        #expect((figures["acknowledgedWrites"] as? Int ?? 0) > 0, "\(line)")
        #expect((figures["crashRecoverySeconds"] as? Double ?? 0) > 0, "\(line)")
        #expect(figures["switchoverRecoverySeconds"] is Double, "\(line)")
        // Clients saw only retryable answers, and no watch stream ended.
        #expect(figures["otherErrors"] as? Int == 0, "\(line) \(result.error)")
        #expect(figures["watchStreamsEnded"] as? Int == 0, "\(line)")
        #expect(figures["watchesCaughtUp"] as? Bool == true, "\(line)")
        // driver-report and consumer-follow, one through each node, rode it out by themselves.
        #expect(figures["driverReportCaughtUp"] as? Bool == true, "\(line)")
        #expect(figures["consumerFollowCaughtUp"] as? Bool == true, "\(line)")
        #expect(figures["consumerFollowOtherErrors"] as? Int == 0, "\(line)")
        // Nothing of the cluster is left: no folder of a run that is over.
        let temporary = FileManager.default.temporaryDirectory.path
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter { name in
            guard name.hasPrefix("fleet-failover-") else { return false }
            let owner = (try? String(contentsOfFile: "\(temporary)/\(name)/owner.pid", encoding: .utf8)).flatMap { Int32($0) }
            return owner.map { kill($0, 0) != 0 } ?? true
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}

/// Whether what `fleet-bench failover` starts is installed (`make setup` installs it).
private enum FailoverPackages {
    static var areInstalled: Bool {
        PostgresCluster.isInstalled && ["/usr/bin/patroni", "/usr/bin/patronictl", "/usr/bin/etcd"].allSatisfy(FileManager.default.isExecutableFile)
    }
}
