/// One named step of the schema, applied once, in order, inside the migration transaction.
struct SchemaMigration: Sendable {
    /// What the step does, logged in the `schema_migrations` table.
    let name: String
    /// The statements it runs (schema only: no values).
    let statements: [String]
    /// Work on the data after the statements, for what SQL alone cannot say exactly.
    let transform: (@Sendable (SQLiteConnection) throws -> Void)?

    init(name: String, statements: [String], transform: (@Sendable (SQLiteConnection) throws -> Void)? = nil) {
        self.name = name
        self.statements = statements
        self.transform = transform
    }
}
