import FleetCLI
import FleetCatalogue
import FleetErrors
import Foundation

ProductCauses.install()

// A first word that names no group is exit 2 with the list of groups.
if let error = FleetBench.unknownGroup(in: Array(CommandLine.arguments.dropFirst())) {
    FileHandle.standardError.write(Data(error.report.utf8))
    exit(ExitCode.usage.rawValue)
}
await CommandLineTool.main(FleetBench.command)
