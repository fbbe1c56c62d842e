/// One named step of the schema, applied once, in order, inside the migration transaction.
struct SchemaMigration: Sendable {
    /// What the step does, logged in the `schema_migrations` table.
    let name: String
    /// The statements it runs (schema only: no values).
    let statements: [String]
}
