import FileStore
import FleetAuth
import FleetEngine
import FleetErrors
import FleetEvaluation
import FleetLocation
import FleetModel
import FleetOperator
import FleetRouting
import FleetSchemes
import FleetStore
import HTTPClient
import HTTPServer
import JournalTransport
import PostgresStore
import APIServer

/// The product's one catalogue, composed: every module's causes registered with `ErrorCatalogue`,
/// so `error-explain`, `docs/errors.md` and every executable's error messages know all of them.
public enum ProductCauses {
    /// Every module's causes, in catalogue order.
    public static let all: [ErrorCause] = [
        FleetAuthCauses.all, FleetEngineCauses.all, FleetModelCauses.all,
        HTTPClientCauses.all, HTTPServerCauses.all, JournalTransportCauses.all, APIServerCauses.all,
        FleetStoreCauses.all, FileStoreCauses.all, FleetOperatorCauses.all,
        FleetLocationCauses.all, FleetEvaluationCauses.all, PostgresStoreCauses.all, FleetRoutingCauses.all, FleetSchemesCauses.all,
    ].flatMap { $0 }

    /// Registers every module's causes with `ErrorCatalogue` (once; later calls do nothing more).
    /// Each executable calls it first thing, as do tests that look causes up by id.
    public static func install() {
        ErrorCatalogue.register(all)
    }
}
