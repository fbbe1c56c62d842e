import FleetCLI
import FleetModel
import Foundation

/// The live view of a followed shipment on a terminal: a fixed number of lines showing the task's
/// state and outcome, the stops before the shipment's, the distance left, the ETA, the vehicle's
/// position (while the view config shows it), and the state of the connection.
///
/// `render` is a pure function of the model: the presenter redraws its lines in place. Made from a
/// trip panel's settings: `TripPanel(style:timeZone:).shipmentPanel`.
public struct ShipmentPanel: FollowPanel {
    /// How many lines `render` returns, always.
    public static let lineCount = 8

    /// Its style, time zone, stale threshold and time scale: a trip panel's (`TripPanel.shipmentPanel`).
    let common: PanelPieces

    init(_ common: PanelPieces) {
        self.common = common
    }

    /// The panel's lines for `model`, none wider than `width` characters (escapes aside); the ETA
    /// counts down from `now` (default: when the model was observed).
    public func render(_ model: ShipmentModel, width: Int, now: Timestamp? = nil) -> [String] {
        let width = max(TripPanel.minimumWidth, width)
        let now = now ?? model.observedAt ?? Timestamp.unixEpoch
        let style = common.style
        let open = model.state == .open
        let distance: [(String, (String) -> String)]
        if open, let meters = model.remainingDrivingDistanceMeters {
            distance = [(ReadableText.distance(meters: meters), { $0 })]
        } else {
            distance = [(open ? "not shown yet" : "—", style.dim)]
        }
        let arrival: [(String, (String) -> String)] = open
            ? common.etaParts(model.estimatedArrivalTime, now: common.countdownNow(model, now)) : [("—", style.dim)]
        let missingVehicle = model.state == .closed ? "—" : model.state == nil ? "..." : "not shown yet"
        var lines: [PanelLine] = []
        lines.append(PanelLine("Shipment", [(model.name, style.bold)]))
        lines.append(statusLine(model, common: common))
        lines.append(PanelLine("Stops", stopParts(model)))
        lines.append(PanelLine("Distance", distance))
        lines.append(PanelLine("Arrival", arrival))
        lines.append(common.vehicleLine(model.vehicle?.location, of: model, now: now, missing: missingVehicle))
        lines.append(common.updatedLine(model))
        lines.append(common.problemLine(model))
        return lines.map { $0.text(width: width, labelStyle: style.dim) }
    }

    private func statusLine(_ model: ShipmentModel, common: PanelPieces) -> PanelLine {
        let style = common.style
        guard let state = model.state else { return PanelLine("Status", [("waiting for the first update...", style.dim)]) }
        guard state == .closed else { return PanelLine("Status", [(state == .open ? "on its way (OPEN)" : state.name, style.bold)]) }
        let when = model.outcomeTime.map { " at \(common.clock($0))" } ?? ""
        switch model.outcome {
        case .succeeded?: return PanelLine("Status", [("done: SUCCEEDED\(when)", { style.bold(style.green($0)) })])
        case let outcome?: return PanelLine("Status", [("not done: \(outcome.name)\(when)", { style.bold(style.red($0)) })])
        case nil: return PanelLine("Status", [("CLOSED, no outcome yet", style.bold)])
        }
    }

    private func stopParts(_ model: ShipmentModel) -> [(String, (String) -> String)] {
        let style = common.style
        guard model.state == .open else { return [("—", style.dim)] }
        guard let before = model.stopsBefore else { return [("not shown yet", style.dim)] }
        if before == 0 { return [("yours is next", style.bold)] }
        return [("\(before) stop\(before == 1 ? "" : "s") before yours", style.bold)]
    }
}
