import FleetConsumer
import FleetErrors
import FleetModel
import Foundation
import Testing

/// `deadlineSeconds`: following that has not ended by itself stops at the deadline with its own
/// outcome and exit status, also while a watch blocks waiting for a change that never comes.
@Suite struct DeadlineTests {
    @Test func aWatchThatSeesNoEndStopsAtTheDeadline() throws {
        let setup = try ErrorRecoveryTests.Setup()
        let recorder = EventRecorder()
        let started = Date()
        let outcome = setup.follower(watch: true, configuration: FollowConfiguration(deadlineSeconds: 0.3)).follow { recorder.record($0) }
        let took = Date().timeIntervalSince(started)
        #expect(outcome == .deadlinePassed)
        #expect(outcome.exitCode == .deadlinePassed && outcome.exitCode.rawValue == 5)
        #expect(took >= 0.3 && took < 5, "\(took) s")
        #expect(!recorder.kinds.contains(.error), "the deadline is no error")
        #expect(outcome.summary(name: "providers/p/trips/t", lastStatus: "NEW")
                == "The deadline passed before trip providers/p/trips/t ended (last status NEW); stopped following.")
    }

    @Test func aTripThatEndsFirstEndsAsItWouldWithoutADeadline() throws {
        let setup = try ErrorRecoveryTests.Setup()
        setup.clock.onSleep { _ in
            do { try setup.script.runNextStep() } catch { Issue.record("step failed: \(error)") }
        }
        let outcome = setup.follower(configuration: FollowConfiguration(deadlineSeconds: 600)).follow { _ in }
        #expect(outcome == .tripEnded(.complete))
    }

    @Test func aStopFromOutsideBeforeTheDeadlineIsAStop() throws {
        let setup = try ErrorRecoveryTests.Setup()
        let stop = StopSignal()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { stop.stop() }
        let outcome = setup.follower(watch: true, configuration: FollowConfiguration(deadlineSeconds: 30)).follow(stop: stop) { _ in }
        #expect(outcome == .stopped)
    }
}
