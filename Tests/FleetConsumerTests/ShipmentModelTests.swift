import FleetConsumer
import FleetModel
import Foundation
import Testing

/// The shipment model: merged from GetTaskTrackingInfo answers, diffed into events in order, ended
/// by a closed task with an outcome, and drawn as a panel.
@Suite struct ShipmentModelTests {
    static let name = "providers/p/taskTrackingInfo/PARCEL-7"
    static let time = Timestamp(seconds: 1_767_225_600)

    static func info(stops: Int32? = 3, state: DeliveryTask.State = .open, outcome: DeliveryTask.TaskOutcome? = nil,
                     van: LatLng? = LatLng(latitude: 48.1, longitude: 11.5)) -> TaskTrackingInfo {
        TaskTrackingInfo(name: name, trackingId: "PARCEL-7",
                         vehicleLocation: van.map { DeliveryVehicleLocation(location: $0, heading: 90, serverTime: time) },
                         remainingStopCount: stops, remainingDrivingDistanceMeters: stops.map { $0 * 500 },
                         estimatedArrivalTime: stops.map { time.adding(seconds: Double($0) * 120) },
                         state: state, taskOutcome: outcome, taskOutcomeTime: outcome == nil ? nil : time,
                         plannedLocation: LocationInfo(point: LatLng(latitude: 48.12, longitude: 11.54)))
    }

    static func merged(_ infos: [TaskTrackingInfo]) -> [ShipmentModel] {
        var models = [ShipmentModel(name: name)]
        for info in infos {
            models.append(models.last!.merging(info, answering: models.last!.request(), observedAt: time))
        }
        return models
    }

    @Test func eachChangeIsOneEventInOrderAfterTheShipmentEvent() throws {
        let models = Self.merged([Self.info(), Self.info(stops: 2), Self.info(stops: 2)])
        let first = models[1].events(since: models[0], at: Self.time)
        #expect(first.map(\.kind) == [.shipment, .taskState, .remainingStopCount, .remainingDrivingDistance, .estimatedArrivalTime,
                                      .vehicleLocation, .plannedLocation])
        #expect(first[0].json["value"]?["changed"] == .array(first.dropFirst().map { .string($0.kind.rawValue) }))
        #expect(first[0].json["value"]?["taskTrackingInfo"]?["trackingId"] == "PARCEL-7")
        #expect(first[0].json["shipment"] == .string(Self.name))
        let second = models[2].events(since: models[1], at: Self.time)
        #expect(second.map(\.kind) == [.shipment, .remainingStopCount, .remainingDrivingDistance, .estimatedArrivalTime])
        #expect(second[1].json["value"] == ["remainingStopCount": 2, "stopsBefore": 1])
        #expect(PlainEventText.line(second[1]).hasSuffix("remainingStopCount 2 (1 stop before yours)"))
        #expect(models[3].events(since: models[2], at: Self.time).isEmpty, "nothing new, nothing said")
    }

    @Test func aClosedTaskEndsFollowingOnceItHasAnOutcome() {
        let models = Self.merged([Self.info(), Self.info(stops: nil, state: .closed, van: nil),
                                  Self.info(stops: nil, state: .closed, outcome: .succeeded, van: nil)])
        #expect(models[1].ending(FollowConfiguration()) == nil)
        #expect(models[2].ending(FollowConfiguration()) == nil, "closed, but the outcome is not set yet")
        #expect(models[3].ending(FollowConfiguration()) == .shipmentClosed(.succeeded))
        #expect(FollowOutcome.shipmentClosed(.succeeded).exitCode.rawValue == 0)
        #expect(FollowOutcome.shipmentClosed(.failed).exitCode.rawValue == 6)
        #expect(models[3].statusName == "CLOSED SUCCEEDED")
        #expect(FollowOutcome.shipmentClosed(.failed).summary(noun: ShipmentModel.noun, name: Self.name, lastStatus: nil)
                == "Shipment \(Self.name) closed: FAILED.")
    }

    @Test func aVanIsStaleOnlyWhileTheTaskIsOpen() {
        let models = Self.merged([Self.info(), Self.info(stops: nil, state: .closed, outcome: .succeeded)])
        #expect(models[1].isVehicleStale(at: Self.time.adding(seconds: 31), staleAfterSeconds: 30))
        #expect(!models[1].isVehicleStale(at: Self.time.adding(seconds: 29), staleAfterSeconds: 30))
        #expect(!models[2].isVehicleStale(at: Self.time.adding(seconds: 999), staleAfterSeconds: 30))
    }

    @Test func thePanelSaysWhatTheCustomerWaitsFor() {
        let panel = TripPanel(timeZone: TimeZone(identifier: "UTC")!).shipmentPanel
        let models = Self.merged([Self.info(stops: 3), Self.info(stops: 1), Self.info(stops: nil, state: .closed, outcome: .failed, van: nil)])
        let open = panel.render(models[1], width: 80, now: Self.time.adding(seconds: 60)).joined(separator: "\n")
        #expect(open.contains("2 stops before yours") && open.contains("1.5 km") && open.contains("ETA 00:06:00  in 5m 00s"), "\(open)")
        #expect(open.contains("48.10000, 11.50000  STALE: no position for 1m 00s"), "past the 30 s threshold: \(open)")
        #expect(panel.render(models[1], width: 80, now: Self.time.adding(seconds: 10)).joined(separator: "\n").contains("48.10000, 11.50000  10s ago"))
        #expect(panel.render(models[2], width: 80).joined(separator: "\n").contains("yours is next"))
        let closed = panel.render(models[3], width: 80).joined(separator: "\n")
        #expect(closed.contains("not done: FAILED at 00:00:00"), "\(closed)")
        #expect(panel.render(models[1], width: 80).count == ShipmentPanel.lineCount)
    }
}
