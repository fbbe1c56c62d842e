import FleetCLI
import FleetErrors
import FleetModel
import FleetOperator

/// `fleet-admin import FILE|-`: re-creates what `export` wrote.
enum ImportCommand {
    /// The options of `import`.
    struct Flags: OptionGroup {
        @Flag("skip-existing", help: "Leave vehicles and trips that already exist alone and go on.")
        var skipExisting: Bool

        init() {}
    }
    /// `<file>`.
    static let file = Argument("file", help: "The export file, or - for standard input.", completion: .files)

    /// The command.
    static let command = AdminCommand.make(
        "import", abstract: "Re-create exported vehicles and trips (JSON lines; streaming, with a progress count).",
        discussion: "Vehicles are created as exported. Each trip is created with its points, type, passengers, attributes and vehicle, then moved along the legal statuses to the one it had (NEW → ENROUTE_TO_PICKUP → ARRIVED_AT_PICKUP → … → COMPLETE; CANCELED straight from NEW), so pickup and dropoff times are those of the import. Finished trips are restored as read, active ones at the end. Resources land in --provider, whatever provider the file names. A resource that already exists fails the import (exit 16), unless --skip-existing.",
        options: Flags.options,
        arguments: [file],
        examples: [
            Example("fleet-admin --provider demo import fleet.jsonl", "Restore a backup into an empty store."),
            Example("fleet-admin --provider demo import --skip-existing fleet.jsonl", "Add what is missing."),
        ]) { session in
        let provider = try session.provider()
        let reader = try LineReader(path: try session.arguments.require(file))
        let progress = session.progress("Importing")
        defer { progress.finish() }
        let counts = try session.withAPI { api in
            let importer = FleetImporter(api: api, provider: provider, skipExisting: try Flags(session.arguments).skipExisting)
            var read = 0
            do {
                try reader.forEachLine { line, number in
                    try importer.add(try FleetRecordLine(line: line, lineNumber: number, source: reader.label))
                    read += 1
                    if read % 50 == 0 { progress.update(done: read, total: nil) }
                }
                try importer.finish()
            } catch {
                progress.finish()
                let done = importer.counts
                session.context.printError("Imported \(done.vehicles) vehicles and \(done.trips) trips before the failure (\(done.skipped) skipped).")
                throw error
            }
            return importer.counts
        }
        progress.finish()
        var json = JSONObject()
        json["vehicles"] = .number(Double(counts.vehicles))
        json["trips"] = .number(Double(counts.trips))
        json["skipped"] = .number(Double(counts.skipped))
        session.printer.value(.object(json)) {
            ["Imported \(counts.vehicles) vehicles and \(counts.trips) trips into providers/\(provider) (\(counts.skipped) already there, skipped)."]
        }
        return 0
    }
}
