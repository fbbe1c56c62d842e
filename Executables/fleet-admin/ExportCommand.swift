#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetCLI
import FleetErrors
import FleetModel
import FleetCatalogue
import FleetOperator

/// `fleet-admin export`: a provider's whole fleet as JSON lines, vehicles first, then trips.
enum ExportCommand {
    /// The options of `export`.
    struct Flags: OptionGroup {
        @Option("output", short: "o", valueName: "file", help: "Write to this file instead of standard output.", completion: .files)
        var output: String?
        @Option("page-size", valueName: "n", help: "Resources per request.", default: "500", check: .within(1...Int32.max))
        var pageSize: Int32

        init() {}
    }

    /// The command.
    static let command = AdminCommand.make(
        "export", abstract: "Write a provider's vehicles and trips as JSON lines (streaming, with a progress bar).",
        discussion: "Each line is {\"kind\":\"vehicle\",\"resource\":{…}} or {\"kind\":\"trip\",\"resource\":{…}}, the resource in Fleet Engine's JSON: every vehicle of --provider (all categories), then every trip. Pages are written as they arrive. Another provider's fleet is another export.",
        options: Flags.options,
        examples: [
            Example("fleet-admin --provider demo export -o fleet.jsonl", "Back up the demo fleet."),
            Example("fleet-admin --provider demo export | fleet-admin --provider copy --store sqlite:copy.db import -",
                    "Copy a fleet into another store."),
        ]) { session in
        let parent = try session.parent()
        let flags = try Flags(session.arguments)
        let pageSize = flags.pageSize
        let destination = try Destination(path: flags.output, standardOutput: session.context.standardOutput)
        defer { destination.finish() }
        var counts = (vehicles: 0, trips: 0)
        try session.withAPI { api in
            let vehicles = ListVehiclesRequest(parent: parent, pageSize: pageSize, vehicleTypeCategories: VehicleType.Category.allKnown.filter { $0 != .unknown })
            try FleetPager(api: api, progress: session.progress("Exporting vehicles")).vehicles(vehicles) { page in
                for vehicle in page { destination.output.write(FleetRecordLine.vehicle(vehicle).text + "\n") }
                counts.vehicles += page.count
            }
            let trips = SearchTripsRequest(parent: parent, pageSize: pageSize)
            try FleetPager(api: api, progress: session.progress("Exporting trips")).trips(trips) { page in
                for trip in page { destination.output.write(FleetRecordLine.trip(trip).text + "\n") }
                counts.trips += page.count
            }
        }
        try destination.check()
        let target = flags.output ?? "standard output"
        session.context.printError("Exported \(counts.vehicles) vehicles and \(counts.trips) trips of \(parent) to \(target).")
        return 0
    }

    /// Where the lines go: standard output, or a file created (truncated) for them.
    struct Destination {
        /// The stream lines are written to.
        let output: any TextOutput
        private let descriptor: Int32?
        private let path: String?

        /// Standard output for nil or `-`, else the file at `path`, created or truncated.
        init(path: String?, standardOutput: any TextOutput) throws(FleetError) {
            guard let path, path != "-" else {
                output = standardOutput
                descriptor = nil
                self.path = nil
                return
            }
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw FleetError(.unwritableOutput, detail: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
            descriptor = opened
            output = FileDescriptorOutput(fileDescriptor: opened)
            self.path = path
        }

        /// Fails when a write to the file failed (a full disk).
        func check() throws(FleetError) {
            if let file = output as? FileDescriptorOutput, descriptor != nil, file.hasFailed {
                throw FleetError(.unwritableOutput, detail: "\(path ?? "the output") cannot be written")
            }
            if let descriptor, fsync(descriptor) != 0, errno != EINVAL {
                throw FleetError(.unwritableOutput, detail: "\(path ?? "the output") cannot be written: \(String(cString: strerror(errno)))")
            }
        }

        /// Closes the file (nothing for standard output).
        func finish() {
            if let descriptor { close(descriptor) }
        }
    }
}
