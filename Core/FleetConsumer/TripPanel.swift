import FleetCLI
import FleetInterface
import FleetModel
import Foundation

/// The live view of a followed trip on a terminal: a fixed number of lines showing the status, the
/// vehicle's position, a progress bar of the distance left on the current leg, both ETAs, and the
/// state of the connection.
///
/// `render` is a pure function of the model: the presenter redraws its lines in place.
public struct TripPanel: FollowPanel {
    /// How many lines `render` returns, always.
    public static let lineCount = 8
    /// The narrowest width rendered as such; narrower terminals get lines cut at this width.
    public static let minimumWidth = 20

    /// Colours and bold, or plain text.
    public var style: Style
    /// The time zone of clock times.
    public var timeZone: TimeZone
    /// A vehicle position older than this is flagged stale on the vehicle line.
    public var staleAfterSeconds = FollowConfiguration.defaultStaleAfterSeconds
    /// How many times faster than real time the trip runs (a drive simulated with
    /// `driver-report --speedup N`, as `make demo` does). ETAs are estimated in the trip's own time,
    /// so between updates the countdowns run this much faster, in that time too.
    public var timeScale = 1.0

    /// A panel with a style (default plain) and a time zone (default the system's).
    public init(style: Style = .plain, timeZone: TimeZone = .current) {
        self.style = style
        self.timeZone = timeZone
    }

    /// The panel's lines for `model`, none wider than `width` characters (escapes aside); ETAs count
    /// down from `now` (default: when the model was observed).
    public func render(_ model: TripModel, width: Int, now: Timestamp? = nil) -> [String] {
        let width = max(Self.minimumWidth, width)
        let now = now ?? model.observedAt ?? Timestamp.unixEpoch
        var lines: [PanelLine] = []
        lines.append(PanelLine("Trip", [(model.tripName, style.bold)]))
        lines.append(statusLine(model))
        lines.append(vehicleLine(model, now: now))
        lines.append(progressLine(model, width: width))
        lines.append(pickupLine(model, now: now))
        lines.append(dropoffLine(model, now: now))
        lines.append(updatedLine(model))
        lines.append(problemLine(model))
        return lines.map { $0.text(width: width, labelStyle: style.dim) }
    }

    // MARK: Lines

    private func statusLine(_ model: TripModel) -> PanelLine {
        guard let status = model.status else {
            return PanelLine("Status", [("waiting for the first update...", style.dim)])
        }
        let colour: (String) -> String
        switch status {
        case .complete: colour = { style.bold(style.green($0)) }
        case .canceled: colour = { style.bold(style.red($0)) }
        default: colour = style.bold
        }
        var parts: [(String, (String) -> String)] = [(status.name, colour)]
        if let vehicle = model.vehicleID { parts.append(("  vehicle \(vehicle)", style.dim)) }
        return PanelLine("Status", parts)
    }

    private func vehicleLine(_ model: TripModel, now: Timestamp) -> PanelLine {
        common.vehicleLine(model.vehicleLocation, of: model, now: now, missing: model.vehicleID == nil ? "not assigned yet" : "no position")
    }

    private func progressLine(_ model: TripModel, width: Int) -> PanelLine {
        guard let remaining = model.remainingDistanceMeters else {
            let text = model.status.map(TripLifecycle.isTerminal) == true ? "trip over" : "no route yet"
            return PanelLine("Progress", [(text, style.dim)])
        }
        let leg = max(remaining, model.legDistanceMeters ?? remaining)
        let done = leg > 0 ? Double(leg - remaining) / Double(leg) : 1
        let caption = " \(ReadableText.distance(meters: remaining)) \(legName(model))"
        let barWidth = min(40, max(10, width - PanelLine.labelWidth - 2 - caption.count))
        return PanelLine("Progress", [(Self.bar(fraction: done, width: barWidth), style.cyan), (caption, { $0 })])
    }

    private func pickupLine(_ model: TripModel, now: Timestamp) -> PanelLine {
        if model.isPickedUp {
            return PanelLine("Pickup", [(model.pickupETA.map { "picked up \(clock($0))" } ?? "picked up", { $0 })])
        }
        return PanelLine("Pickup", common.etaParts(model.pickupETA, now: common.countdownNow(model, now)))
    }

    private func dropoffLine(_ model: TripModel, now: Timestamp) -> PanelLine {
        switch model.status {
        case .complete?:
            return PanelLine("Dropoff", [(model.dropoffETA.map { "dropped off \(clock($0))" } ?? "dropped off", { $0 })])
        case .canceled?:
            return PanelLine("Dropoff", [("canceled", style.dim)])
        default:
            return PanelLine("Dropoff", common.etaParts(model.dropoffETA, now: common.countdownNow(model, now)))
        }
    }

    private func updatedLine(_ model: TripModel) -> PanelLine { common.updatedLine(model) }

    private func problemLine(_ model: TripModel) -> PanelLine { common.problemLine(model) }

    // MARK: Pieces

    /// The lines and pieces a shipment's panel draws alike.
    private var common: PanelPieces {
        PanelPieces(style: style, timeZone: timeZone, staleAfterSeconds: staleAfterSeconds, timeScale: timeScale)
    }

    /// A shipment's panel with the same style, time zone, stale threshold and time scale.
    public var shipmentPanel: ShipmentPanel { ShipmentPanel(common) }

    private func legName(_ model: TripModel) -> String {
        guard let next = model.nextWaypoint else { return "left" }
        guard next.tripId == model.tripID else { return "to another rider's stop" }
        switch next.waypointType {
        case .pickupWaypointType?: return "to pickup"
        case .dropOffWaypointType?: return "to dropoff"
        case .intermediateDestinationWaypointType?: return "to the next stop"
        default: return "left"
        }
    }

    private func clock(_ time: Timestamp) -> String { common.clock(time) }

    /// `[=========>          ]`: `fraction` (0 … 1) of `width - 2` cells filled.
    static func bar(fraction: Double, width: Int) -> String {
        let cells = max(1, width - 2)
        let filled = Int((min(1, max(0, fraction)) * Double(cells)).rounded(.down))
        if filled >= cells { return "[" + String(repeating: "=", count: cells) + "]" }
        let body = String(repeating: "=", count: filled) + ">" + String(repeating: " ", count: cells - filled - 1)
        return "[" + body + "]"
    }
}

/// What the trip's and the shipment's panels draw alike: the vehicle's position and its age, when
/// the model was last updated and what went wrong, ETAs, clock times.
struct PanelPieces {
    let style: Style
    let timeZone: TimeZone
    let staleAfterSeconds: Double
    let timeScale: Double

    /// `Vehicle  60.17000, 24.94000  12s ago`, flagged STALE past `staleAfterSeconds`; `missing`
    /// (dim) without a position.
    func vehicleLine(_ location: LatLng?, of model: some FollowedModel, now: Timestamp, missing: String) -> PanelLine {
        guard let location else { return PanelLine("Vehicle", [(missing, style.dim)]) }
        var parts: [(String, (String) -> String)] = [(ReadableText.coordinate(location), { $0 })]
        if let age = model.vehicleLocationAge(at: now) {
            let ago = ReadableText.duration(seconds: Int(age.rounded()))
            if model.isVehicleStale(at: now, staleAfterSeconds: staleAfterSeconds) {
                parts.append(("  STALE: no position for \(ago)", { style.bold(style.red($0)) }))
            } else {
                parts.append(("  \(ago) ago", style.dim))
            }
        }
        return PanelLine("Vehicle", parts)
    }

    /// `Updated  14:03:27`, and the last failure with what happens next.
    func updatedLine(_ model: some FollowedModel) -> PanelLine {
        var parts: [(String, (String) -> String)] = [(model.observedAt.map(clock) ?? "never", { $0 })]
        if let failure = model.lastFailure {
            let colour = failure.isRecovering ? style.yellow : style.red
            parts.append(("  \(failure.error.code.name): \(PlainEventText.nextStep(failure))", colour))
        }
        return PanelLine("Updated", parts)
    }

    /// The last failure's cause (and remedy, when it needs action); empty without one.
    func problemLine(_ model: some FollowedModel) -> PanelLine {
        guard let failure = model.lastFailure else { return PanelLine("", []) }
        let text = failure.isRecovering ? failure.cause : "\(failure.cause). \(failure.remedy)"
        return PanelLine("", [(text, style.dim)])
    }

    /// `now` in the followed thing's own time: the real time passed since the model was observed,
    /// `timeScale` times over.
    func countdownNow(_ model: some FollowedModel, _ now: Timestamp) -> Timestamp {
        guard timeScale != 1, let observed = model.observedAt else { return now }
        return observed.adding(seconds: now.timeIntervalSince(observed) * timeScale)
    }

    /// `ETA 14:05:00  in 2m 05s`, or `no ETA yet`.
    func etaParts(_ eta: Timestamp?, now: Timestamp) -> [(String, (String) -> String)] {
        guard let eta else { return [("no ETA yet", style.dim)] }
        let left = ReadableText.duration(seconds: ReadableText.secondsLeft(until: eta, from: now))
        return [("ETA \(clock(eta))", style.bold), ("  in \(left)", { $0 })]
    }

    /// The time of day in the panel's time zone.
    func clock(_ time: Timestamp) -> String {
        ReadableText.clockTime(time, timeZone: timeZone)
    }
}

/// One line of the panel: a label in a fixed column, then styled pieces, cut to the width before styling.
struct PanelLine {
    /// The label column's width.
    static let labelWidth = 10

    let label: String
    let parts: [(String, (String) -> String)]

    init(_ label: String, _ parts: [(String, (String) -> String)]) {
        self.label = label
        self.parts = parts
    }

    func text(width: Int, labelStyle: (String) -> String) -> String {
        var room = width
        var result = ""
        let paddedLabel = label.isEmpty ? String(repeating: " ", count: Self.labelWidth)
            : label + String(repeating: " ", count: max(1, Self.labelWidth - label.count))
        let labelPiece = String(paddedLabel.prefix(room))
        result += label.isEmpty ? labelPiece : labelStyle(labelPiece)
        room -= labelPiece.count
        for (text, apply) in parts where room > 0 {
            let piece = text.count > room ? String(text.prefix(max(0, room - 3))) + String("...".prefix(room)) : text
            result += apply(piece)
            room -= piece.count
        }
        return parts.isEmpty ? "" : result
    }
}
