import FleetCLI
import FleetCatalogue

/// The entry point: runs the command tree with the process's arguments and exits with its status.
@main
enum FleetAdmin {
    /// Runs fleet-admin.
    static func main() async {
        ProductCauses.install()
        await CommandLineTool.main(FleetAdminTool.command())
    }
}
