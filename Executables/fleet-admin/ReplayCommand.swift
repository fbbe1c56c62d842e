import FleetCLI
import FleetErrors
import FleetKit
import FleetModel
import JournalTransport

/// `fleet-admin replay JOURNAL --to URL`: makes the calls a `file:` transport journal recorded,
/// in order, against another engine.
enum ReplayCommand {
    /// The commands this file adds to the tree.
    static let commands: [Command] = [command]

    /// The options of `replay`.
    struct Flags: OptionGroup {
        /// The engine to replay into, a transport URL.
        @Option("to", valueName: "url", help: "The engine to replay into (default: --transport).")
        var target: String?
        @Option("from", valueName: "sequence", help: "Skip records numbered below this.")
        var from: Int?

        init() {}
    }
    /// `<journal>`.
    static let journalArgument = Argument("journal", help: "The journal file.", completion: .files)

    /// The command.
    static let command = AdminCommand.make(
        "replay", abstract: "Make a journal's recorded calls again, in order, against an engine.",
        discussion: "JOURNAL is the file of a file: transport (JSON lines of CreateVehicle, UpdateTrip, … calls). --to names the target like --transport (default: --transport): an http://HOST:PORT server, or memory over --store, where each call runs at the time it was recorded, reproducing the journal's state exactly. The first call that fails stops the replay; its line is in the message. --from skips records before a sequence number (to resume).",
        options: Flags.options,
        arguments: [journalArgument],
        examples: [
            Example("fleet-admin replay /var/lib/fleet/journal.jsonl --to http://127.0.0.1:8080 --token \"$TOKEN\"",
                    "Rebuild a server's fleet from a session's journal."),
            Example("fleet-admin replay journal.jsonl --to memory --store sqlite:copy.db", "Materialise a journal into a SQLite store."),
        ]) { session in
        let arguments = session.arguments
        let path = try arguments.require(journalArgument)
        let flags = try Flags(arguments)
        let target = flags.target.map { ConnectionGroup(transport: $0, store: session.connection.store) } ?? session.connection
        let from = flags.from ?? 0
        let clock = RecordTimeClock()
        var options = try session.connectionOptions()
        options.clock = clock
        let connection = try session.connect(target, options: options)
        let progress = session.progress("Replaying")
        var applied = 0
        var skipped = 0
        do {
            try JournalReader(path: path).read { record in
                guard record.sequence >= from else {
                    skipped += 1
                    return
                }
                do {
                    try JournalTransport.apply(record, to: connection.api, clock: clock)
                } catch var error as FleetError {
                    error.message = "\(path) record \(record.sequence) (\(record.call.method)): \(error.message)"
                    throw error
                }
                applied += 1
                if applied % 50 == 0 { progress.update(done: applied, total: nil) }
            }
        } catch {
            progress.finish()
            try? connection.close()
            session.context.printError("Replayed \(applied) records before the failure.")
            throw error
        }
        progress.finish()
        try connection.close()
        var json = JSONObject()
        json["applied"] = .number(Double(applied))
        json["skipped"] = .number(Double(skipped))
        session.printer.value(.object(json)) { ["Replayed \(applied) records of \(path) into \(target) (\(skipped) skipped)."] }
        return 0
    }
}
