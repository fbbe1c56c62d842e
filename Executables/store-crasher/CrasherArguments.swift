import FleetCLI

/// The command line of `store-crasher`.
struct CrasherArguments {
    /// The declaration: help and parsing come from it.
    static let command = Command(
        "store-crasher",
        abstract: "Commit to a store until killed, printing intents and acknowledgements (crash tests).",
        discussion: """
            Performs N commits against the store (a seeded, reproducible mix of creations, updates, \
            multi-record commits and deletions) and prints, for each, `intent <n> <key> <version>` lines \
            before it and `ack <key> <version>` lines once it returned. Used by the crash tests, which \
            kill it with SIGKILL at a random point and check that every acknowledged write survived.
            """,
        options: [
            .value("seed", valueName: "s", help: "The seed of the workload (an unsigned integer).", required: true),
            .value("count", valueName: "n", help: "How many commits to make.", required: true),
            .value("compact-records", valueName: "r", help: "For file: stores, compact after every R journal records."),
            .value("history-filing-interval", valueName: "n", help: "For sqlite: stores, file history points by vehicle after every N of them."),
            .value("provider", valueName: "p", help: "The provider the records belong to.", default: "crash"),
            .value("file-size-limit", valueName: "bytes",
                   help: "No file may grow past this (RLIMIT_FSIZE, like a full disk): commits that fail print `failed <n> <error>` and the run goes on."),
        ],
        arguments: [Argument("store-url", help: "The store: sqlite:PATH or file:PATH.")])

    var storeURL: String
    var seed: UInt64
    var count: Int
    var compactRecords: Int?
    var historyFilingInterval: Int?
    var provider: String
    var fileSizeLimit: Int?

    /// Reads the parsed arguments; a usage error names the option at fault.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        storeURL = try arguments.require("store-url")
        let seedText = try arguments.require("seed")
        guard let seed = UInt64(seedText) else { throw arguments.usageError("--seed must be an unsigned integer, got '\(seedText)'") }
        self.seed = seed
        count = try arguments.int("count") ?? 0
        guard count >= 0 else { throw arguments.usageError("--count must be an integer >= 0") }
        compactRecords = try arguments.int("compact-records")
        if let compactRecords, compactRecords <= 0 { throw arguments.usageError("--compact-records must be an integer > 0") }
        historyFilingInterval = try arguments.int("history-filing-interval")
        if let historyFilingInterval, historyFilingInterval <= 0 { throw arguments.usageError("--history-filing-interval must be an integer > 0") }
        provider = arguments.string("provider") ?? "crash"
        fileSizeLimit = try arguments.int("file-size-limit")
        if let fileSizeLimit, fileSizeLimit <= 0 { throw arguments.usageError("--file-size-limit must be an integer > 0") }
    }
}
