/// The command line of `store-crasher`.
struct CrasherArguments {
    static let usage = """
        usage: store-crasher STORE_URL --seed S --count N [--compact-records R] [--provider P] [--file-size-limit B]
          Performs N commits against the store (a seeded, reproducible mix of creations, updates,
          multi-record commits and deletions) and prints, for each, `intent <n> <key> <version>` lines
          before it and `ack <key> <version>` lines once it returned. Used by the crash tests, which
          kill it with SIGKILL at a random point and check that every acknowledged write survived.
          --compact-records R  for file: stores, compact after every R journal records
          --provider P         the provider the records belong to (default: crash)
          --file-size-limit B  no file may grow past B bytes (RLIMIT_FSIZE, like a full disk): commits that
                               fail print `failed <n> <error>` and the run goes on
        """

    var storeURL: String
    var seed: UInt64
    var count: Int
    var compactRecords: Int?
    var provider = "crash"
    var fileSizeLimit: Int?

    /// Parses the arguments after the program name; the message says what is wrong.
    init(_ arguments: [String]) throws(UsageError) {
        var url: String?
        var seed: UInt64?
        var count: Int?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            func value() throws(UsageError) -> String {
                guard let value = iterator.next() else { throw UsageError("\(argument) needs a value") }
                return value
            }
            switch argument {
            case "--seed":
                let text = try value()
                guard let parsed = UInt64(text) else { throw UsageError("--seed must be an unsigned integer, got '\(text)'") }
                seed = parsed
            case "--count":
                let text = try value()
                guard let parsed = Int(text), parsed >= 0 else { throw UsageError("--count must be an integer >= 0, got '\(text)'") }
                count = parsed
            case "--compact-records":
                let text = try value()
                guard let parsed = Int(text), parsed > 0 else { throw UsageError("--compact-records must be an integer > 0, got '\(text)'") }
                compactRecords = parsed
            case "--provider":
                provider = try value()
            case "--file-size-limit":
                let text = try value()
                guard let parsed = Int(text), parsed > 0 else { throw UsageError("--file-size-limit must be an integer > 0, got '\(text)'") }
                fileSizeLimit = parsed
            case "--help", "-h":
                throw UsageError(nil)
            default:
                guard !argument.hasPrefix("-"), url == nil else { throw UsageError("unexpected argument '\(argument)'") }
                url = argument
            }
        }
        guard let url else { throw UsageError("missing STORE_URL") }
        guard let seed else { throw UsageError("missing --seed") }
        guard let count else { throw UsageError("missing --count") }
        self.storeURL = url
        self.seed = seed
        self.count = count
    }

    /// A bad command line; nil message for `--help`.
    struct UsageError: Error {
        var message: String?
        init(_ message: String?) { self.message = message }
    }
}
