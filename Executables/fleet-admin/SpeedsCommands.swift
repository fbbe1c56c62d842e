import FleetCLI
import FleetEngine
import FleetErrors
import FleetEvaluation
import FleetGeo
import FleetKit
import FleetLearning
import FleetModel
import FleetStore
import Foundation

/// `fleet-admin speeds learn|show|clear`: the travel times and waits the fleet learned from its drives, which the
/// engine uses for every ETA (docs/eta.md). They live in the store, so these commands open it (`--store`); over
/// `--transport http://…` run them on a machine that reaches the server's store.
enum SpeedsCommands {
    /// The `speeds` group.
    static let command = Command(
        "speeds", abstract: "Learn, inspect and reset the travel times and waits learned from the fleet's drives.",
        subcommands: [learn, show, clear])

    /// The options of `speeds learn`.
    struct LearnFlags: OptionGroup {
        @Option("traces", valueName: "file.csv",
                help: "Learn from recorded drives in a CSV file (trip_id,timestamp,latitude,longitude; the form `fleet-bench eta --traces` reads) instead of from the store's position history.",
                completion: .files)
        var traces: String?

        init() {}
    }

    /// The options of `speeds show`.
    struct ShowFlags: OptionGroup {
        @Option("limit", valueName: "n", help: "How many pieces of road to list, most passes first.", default: "20", check: .zeroOrMore)
        var limit: Int

        init() {}
    }

    /// Opens the store the session names; a transport other than the in-process one is a usage error.
    static func withStorage<Result>(_ session: AdminSession, _ body: (LearnedTimesStorage) throws -> Result) throws -> Result {
        guard session.connection.runsEngineInProcess else {
            throw session.arguments.usageError("speeds works on the store: give --store URL (the server's store) instead of --transport \(session.connection.transport)")
        }
        let url = session.connection.storeURL(environment: session.context.environment)
        try session.arguments.checkingSettings { try Wiring.checkStore(url, environment: session.context.environment) }
        let store = try Wiring.openStore(url, environment: session.context.environment)
        defer { try? store.close() }
        return try body(LearnedTimesStorage(store: store))
    }

    /// `speeds learn`.
    static let learn = AdminCommand.make(
        "learn", abstract: "Learn travel times and waits from the position history (or recorded drives) and add them to the store's tables.",
        discussion: "Without --traces, learns from the store's position history every point kept since the last learning (a server learns the same way every 5 minutes by itself; each span is learned once, however many nodes and commands run). Each drive is cut into 10 m steps on directed 50 m pieces of road; the seconds spent on each piece, and the waits (intervals averaging under 1 m/s), are added to the store's tables by quarter hour of the week in the machine's time zone. Learning a trace file adds: learning the same file twice counts it twice (`speeds clear` starts again). Servers on the store use what is learned within a minute.",
        options: LearnFlags.options,
        examples: [
            Example("fleet-admin --provider demo speeds learn", "Learn what the fleet drove since the last learning."),
            Example("fleet-admin --provider demo speeds learn --traces drives.csv", "Learn from a file of past drives."),
        ]) { session in
        let provider = try session.provider()
        let learner = DriveLearner(utcOffsetSeconds: LearnedETASettings().model.utcOffsetSeconds)
        guard let path = try LearnFlags(session.arguments).traces else {
            let (summary, total) = try withStorage(session) { storage in
                let summary = try HistoryLearning(storage: storage, learner: learner).run(provider: provider, now: Date().timeIntervalSince1970)
                return (summary, try storage.load(provider: provider).extent)
            }
            func time(_ microseconds: Int64) -> JSON {
                microseconds == .min ? .null : .string(Timestamp(timeIntervalSince1970: Double(microseconds) / 1_000_000).rfc3339String)
            }
            let json: JSON = .object([
                "from": time(summary.from), "to": time(summary.to),
                "points": .number(Double(summary.points)), "vehicles": .number(Double(summary.vehicles)),
                "rows": .number(Double(summary.rows)),
                "totalPieces": .number(Double(total.pieces)), "totalRows": .number(Double(total.rows)),
            ])
            session.printer.value(json) {
                KeyValueBlock([
                    ("History", "\(summary.points) points of \(summary.vehicles) vehicles since \(summary.from == .min ? "the start" : time(summary.from).stringValue ?? "")"),
                    ("Learned", "\(summary.rows) quarter-hour rows"),
                    ("Now stored", "\(total.pieces) pieces, \(total.rows) rows"),
                ]).lines(labelStyle: session.style.dim)
            }
            return 0
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FleetError(.malformedTraceFile, detail: "\(path): cannot be read: \(error.localizedDescription)", field: "traces")
        }
        let drives = try TraceFile.drives(from: text, source: path)
        var learned = RoadTimes()
        for drive in drives { learner.learn(drive.fixes, into: &learned) }
        let rows = learned.rows
        let total = try withStorage(session) { storage in
            try storage.add(rows, provider: provider)
            return try storage.load(provider: provider).extent
        }
        let added = learned.extent
        let json: JSON = .object([
            "drives": .number(Double(drives.count)),
            "pieces": .number(Double(added.pieces)),
            "rows": .number(Double(rows.count)),
            "passes": .number(added.passes),
            "totalPieces": .number(Double(total.pieces)),
            "totalRows": .number(Double(total.rows)),
        ])
        session.printer.value(json) {
            KeyValueBlock([
                ("Drives", "\(drives.count)"),
                ("Learned", "\(added.pieces) pieces of road, \(rows.count) quarter-hour rows, \(Int(added.passes)) passes"),
                ("Now stored", "\(total.pieces) pieces, \(total.rows) rows"),
            ]).lines(labelStyle: session.style.dim)
        }
        return 0
    }

    /// `speeds show`.
    static let show = AdminCommand.make(
        "show", abstract: "Show how much is learned, and the pieces of road with the most evidence.",
        discussion: "Lists pieces of road by passes: where (the piece's centre), the direction of travel, passes seen, the learned speed over the whole week and at this quarter hour, and how often and how long vehicles stand there.",
        options: ShowFlags.options,
        examples: [Example("fleet-admin --provider demo speeds show --limit 5", "The five best-known pieces of road.")]) { session in
        let provider = try session.provider()
        let limit = try ShowFlags(session.arguments).limit
        let times = try withStorage(session) { try $0.load(provider: provider) }
        let now = WeekSlot(epochSeconds: Date().timeIntervalSince1970, utcOffsetSeconds: LearnedETASettings().model.utcOffsetSeconds)
        let extent = times.extent
        let directions = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let top = times.pieces.sorted { ($0.value.total.passes, $1.key) > ($1.value.total.passes, $0.key) }.prefix(limit)
        func kmh(_ secondsPerMeter: Double?) -> JSON {
            guard let secondsPerMeter, secondsPerMeter > 0 else { return .null }
            return .number((36 / secondsPerMeter).rounded() / 10)
        }
        let pieces: [JSON] = top.map { piece, entry in
            let waits = times.waits(on: piece)
            let fields: JSONObject = [
                "piece": .string(piece.description),
                "latitude": .number((piece.centre.latitude * 1e6).rounded() / 1e6),
                "longitude": .number((piece.centre.longitude * 1e6).rounded() / 1e6),
                "heading": .string(directions[Int(piece.heading)]),
                "passes": .number(entry.total.passes),
                "weekKmh": kmh(entry.total.secondsPerMeter),
                "nowKmh": kmh(times.pace(piece, slot: now)?.secondsPerMeter),
                "waitChance": .number(((waits?.chance ?? 0) * 100).rounded() / 100),
                "meanWaitSeconds": .number((waits?.meanSeconds ?? 0).rounded()),
            ]
            return .object(fields)
        }
        let json: JSON = .object([
            "pieces": .number(Double(extent.pieces)),
            "rows": .number(Double(extent.rows)),
            "passes": .number(extent.passes),
            "slot": .string(now.name),
            "top": .array(pieces),
        ])
        session.printer.value(json) {
            var lines = KeyValueBlock([
                ("Learned", "\(extent.pieces) pieces of road, \(extent.rows) quarter-hour rows, \(Int(extent.passes)) passes"),
                ("Now", now.name),
            ]).lines(labelStyle: session.style.dim)
            guard !pieces.isEmpty else { return lines }
            let rows: [[String]] = top.map { piece, entry in
                let waits = times.waits(on: piece)
                return [String(format: "%.5f,%.5f", piece.centre.latitude, piece.centre.longitude), directions[Int(piece.heading)],
                        "\(Int(entry.total.passes))",
                        entry.total.secondsPerMeter.map { String(format: "%.1f", 3.6 / $0) } ?? "–",
                        times.pace(piece, slot: now).map { String(format: "%.1f", 3.6 / $0.secondsPerMeter) } ?? "–",
                        String(format: "%.0f%%", (waits?.chance ?? 0) * 100), String(format: "%.0f", waits?.meanSeconds ?? 0)]
            }
            lines.append("")
            lines += TextTable(header: ["WHERE", "DIR", "PASSES", "WEEK KM/H", "NOW KM/H", "WAITS", "WAIT S"], rows: rows,
                               rightAligned: [2, 3, 4, 5, 6]).lines(headerStyle: session.style.bold)
            return lines
        }
        return 0
    }

    /// `speeds clear`.
    static let clear = AdminCommand.make(
        "clear", abstract: "Remove everything learned for the provider; ETAs use live speeds until learned again.",
        examples: [Example("fleet-admin --provider demo speeds clear", "Start learning again.")]) { session in
        let provider = try session.provider()
        let removed = try withStorage(session) { try $0.clear(provider: provider) }
        session.printer.value(.object(["removedTiles": .number(Double(removed))])) {
            ["Removed \(removed) tiles of learned times."]
        }
        return 0
    }
}
