import FileStore
import FleetAuth
import FleetEngine
import FleetErrors
import FleetEvaluation
import FleetLocation
import FleetModel
import FleetRouting
import FleetStore
import HTTPClient
import HTTPServer
import JournalTransport
import PostgresStore
import RESTServer

extension ErrorCause {
    // MARK: fleet-admin
    /// A file fleet-admin was told to write (`export --output`) cannot be created or written.
    public static let unwritableOutput = ErrorCause(
        id: "UNWRITABLE_OUTPUT", code: .invalidArgument,
        summary: "The output file could not be written",
        remedy: "Give a path in a folder that exists and that you may write to, on a disk with free space; the message says what the system answered.",
        matchPhrases: ["cannot be written", "cannot create", "no space left"])
    /// A line of an export file that is not a fleet record.
    public static let badExportLine = ErrorCause(
        id: "BAD_EXPORT_LINE", code: .invalidArgument,
        summary: "A line of the import file is not a fleet record",
        remedy: "Import files hold one JSON object per line, {\"kind\":\"vehicle\"|\"trip\",\"resource\":{…}}, as `fleet-admin export` writes them; fix or remove the line named in the message.",
        matchPhrases: ["import file", "line", "kind"])
}
/// The product's one catalogue, composed: every module's causes registered with `ErrorCatalogue`,
/// so `error-explain`, `docs/errors.md` and every executable's error messages know all of them.
public enum ProductCauses {
    /// The causes fleet-admin's own commands report (export and import files).
    public static let fleetAdmin: [ErrorCause] = [.unwritableOutput, .badExportLine]

    /// Every module's causes, in catalogue order.
    public static let all: [ErrorCause] = [
        FleetAuthCauses.all, FleetEngineCauses.all, FleetModelCauses.all,
        HTTPClientCauses.all, HTTPServerCauses.all, JournalTransportCauses.all, RESTServerCauses.all,
        FleetStoreCauses.all, FileStoreCauses.all, fleetAdmin,
        FleetLocationCauses.all, FleetEvaluationCauses.all, PostgresStoreCauses.all, FleetRoutingCauses.all,
    ].flatMap { $0 }

    /// Registers every module's causes with `ErrorCatalogue` (once; later calls do nothing more).
    /// Each executable calls it first thing, as do tests that look causes up by id.
    public static func install() {
        ErrorCatalogue.register(all)
    }
}
