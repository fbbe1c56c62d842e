/// The exit status of every executable: 0 success, 1 general failure, 2 usage error, and
/// 10 + the gRPC number for a `FleetError` (INVALID_ARGUMENT 13, NOT_FOUND 15, PERMISSION_DENIED 17,
/// UNAVAILABLE 24, UNAUTHENTICATED 26).
public struct ExitCode: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The value handed to `exit`.
    public let rawValue: Int32

    /// An exit code with this value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// 0: the command did what was asked.
    public static let success = ExitCode(rawValue: 0)
    /// 1: a failure that is not a Fleet Engine error (for `error-explain`: a code it does not know).
    public static let failure = ExitCode(rawValue: 1)
    /// 2: the command line was wrong (unknown option, missing argument, bad value).
    public static let usage = ExitCode(rawValue: 2)
    /// The first exit code of the gRPC range: 10 + gRPC number.
    public static let grpcBase: Int32 = 10

    /// The exit code for a gRPC code: 10 + its number; `.ok` is success.
    public init(_ code: GRPCCode) {
        self.rawValue = code == .ok ? 0 : ExitCode.grpcBase + code.rawValue
    }

    /// The exit code for an error: 10 + its code's number. An error that claims `.ok` is a general failure.
    public init(_ error: FleetError) {
        self = error.code == .ok ? .failure : ExitCode(error.code)
    }

    /// The gRPC code this exit code stands for (11–26), or nil.
    public var grpcCode: GRPCCode? {
        guard rawValue > ExitCode.grpcBase else { return nil }
        return GRPCCode(rawValue: rawValue - ExitCode.grpcBase)
    }

    /// What the exit code means, for people (`PERMISSION_DENIED (gRPC 7)`).
    public var meaning: String {
        switch self {
        case .success: return "success"
        case .failure: return "general failure (error-explain: an input it does not understand)"
        case .usage: return "usage error: unknown option, missing or bad argument"
        default:
            if let code = grpcCode { return "\(code.name) (gRPC \(code.rawValue))" }
            return "not used"
        }
    }

    /// Every exit code the executables use, in increasing order.
    public static let allUsed: [ExitCode] =
        [.success, .failure, .usage] + GRPCCode.allCases.filter { $0 != .ok }.map(ExitCode.init)

    /// The Markdown table of `allUsed` (docs/exit-codes.md holds it).
    public static var markdownTable: String {
        var lines = ["| exit code | meaning |", "|---|---|"]
        for code in allUsed { lines.append("| \(code.rawValue) | \(code.meaning) |") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The number, as the shell shows it.
    public var description: String { String(rawValue) }

    /// Orders exit codes by value.
    public static func < (lhs: ExitCode, rhs: ExitCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
