import FleetCLI
import FleetConsumer
import FleetErrors
import FleetModel
import Foundation
import Testing

/// What each presenter writes: JSON lines, plain lines with a closing line on standard error, and the
/// live panel drawn in place with the cursor hidden until the end.
@Suite struct PresenterTests {
    static let update: TripUpdate = {
        let model = TripPanelTests.halfWay()
        let time = model.observedAt!
        return TripUpdate(model: model, events: [
            TripEvent(kind: .trip, tripName: model.tripName, time: time,
                      value: .changes([ChangedPart(kind: TripEventKind.tripStatus, value: .status(.enrouteToPickup))],
                                      snapshot: .trip(Trip(name: model.tripName, tripStatus: .enrouteToPickup)))),
            TripEvent(kind: .tripStatus, tripName: model.tripName, time: time, value: .status(.enrouteToPickup)),
        ])
    }()

    @Test func jsonLinesOnePerEventAndNothingElse() {
        let output = CapturedOutput()
        let presenter = JSONLinesPresenter<TripModel>(output: output)
        presenter.start()
        presenter.present(Self.update)
        presenter.present(TripUpdate(model: Self.update.model, events: []))
        presenter.finish(.tripEnded(.complete))
        let lines = output.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(lines[0] == #"{"event":"trip","trip":"providers/p/trips/t","time":"2026-01-01T00:01:00Z","value":{"changed":["tripStatus"],"trip":{"name":"providers/p/trips/t","tripStatus":"ENROUTE_TO_PICKUP"}}}"#)
        #expect(lines[1] == #"{"event":"tripStatus","trip":"providers/p/trips/t","time":"2026-01-01T00:01:00Z","value":"ENROUTE_TO_PICKUP"}"#)
    }

    @Test func plainLinesAndAClosingLineOnTheSummaryOutput() {
        let output = CapturedOutput()
        let summary = CapturedOutput()
        let presenter = PlainLinesPresenter<TripModel>(name: "providers/p/trips/t", output: output, summaryOutput: summary)
        presenter.start()
        presenter.present(Self.update)
        presenter.finish(.stopped)
        #expect(output.text == """
            2026-01-01T00:01:00Z trip changed tripStatus: ENROUTE_TO_PICKUP
            2026-01-01T00:01:00Z tripStatus ENROUTE_TO_PICKUP

            """)
        #expect(summary.text == "Stopped following providers/p/trips/t (last status ENROUTE_TO_PICKUP).\n")
    }

    @Test func theLivePanelRedrawsInPlaceAndRestoresTheCursor() {
        let output = CapturedOutput(isTerminal: true)
        let panel = TripPanel(timeZone: TripPanelTests.utc)
        let now = TripPanelTests.start.adding(seconds: 60)
        let presenter = LivePanelPresenter(name: "providers/p/trips/t", output: output, panel: panel,
                                           width: { 60 }, now: { now })
        let escape = "\u{1B}["
        presenter.start()
        let first = output.text
        #expect(first.hasPrefix(escape + "?25l"))
        #expect(first.components(separatedBy: "\n").count == TripPanel.lineCount + 1)
        #expect(first.contains("waiting for the first update"))

        presenter.present(Self.update)
        let second = String(output.text.dropFirst(first.count))
        let frame = panel.render(Self.update.model, width: 60, now: now).map { escape + "2K" + $0 + "\n" }.joined()
        #expect(second == "\r" + escape + "2K" + escape + "\(TripPanel.lineCount)F" + frame)

        presenter.finish(.tripEnded(.complete))
        let last = String(output.text.dropFirst(first.count + second.count))
        #expect(last.hasSuffix(escape + "?25h" + "Trip providers/p/trips/t is COMPLETE.\n"))
        // Nothing is drawn after the end.
        presenter.present(Self.update)
        presenter.refresh()
        #expect(output.text.count == first.count + second.count + last.count)
    }

    @Test(arguments: [
        (FollowOutcome.tripEnded(.canceled), "Trip t is CANCELED."),
        (.untilReached(.arrivedAtPickup), "Trip t reached ARRIVED_AT_PICKUP; stopped following."),
        (.stopped, "Stopped following t (last status NEW)."),
        (.failed(FleetError(.tripNotFound, detail: "t")), "Gave up following t: NOT_FOUND: \(ErrorCause.tripNotFound.summary): t"),
    ])
    func summariesSayWhyFollowingEnded(outcome: FollowOutcome, summary: String) {
        #expect(outcome.summary(name: "t", lastStatus: "NEW") == summary)
    }

    @Test func exitCodes() {
        #expect(FollowOutcome.tripEnded(.complete).exitCode.rawValue == 0)
        #expect(FollowOutcome.untilReached(.new).exitCode.rawValue == 0)
        #expect(FollowOutcome.stopped.exitCode.rawValue == 130)
        #expect(FollowOutcome.failed(FleetError(.badTripName)).exitCode.rawValue == 13)
        #expect(FollowOutcome.failed(FleetError(.tripNotFound)).exitCode.rawValue == 15)
        #expect(FollowOutcome.failed(FleetError(.jwtForOtherResource)).exitCode.rawValue == 17)
    }
}
