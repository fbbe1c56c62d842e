/// The tests' PostgreSQL cluster (`PostgresCluster.shared`, `makePrivate()`) is the one `fleet-bench`
/// starts too, from the non-test module ThrowawayPostgres: every test that imports FleetTestSupport
/// sees it.
@_exported import ThrowawayPostgres
