import Testing
@testable import FleetErrors

/// The 17 codes as the reference table gives them: number, name, HTTP status.
let referenceCodes: [(number: Int32, name: String, http: Int)] = [
    (0, "OK", 200), (1, "CANCELLED", 499), (2, "UNKNOWN", 500), (3, "INVALID_ARGUMENT", 400),
    (4, "DEADLINE_EXCEEDED", 504), (5, "NOT_FOUND", 404), (6, "ALREADY_EXISTS", 409),
    (7, "PERMISSION_DENIED", 403), (8, "RESOURCE_EXHAUSTED", 429), (9, "FAILED_PRECONDITION", 400),
    (10, "ABORTED", 409), (11, "OUT_OF_RANGE", 400), (12, "UNIMPLEMENTED", 501), (13, "INTERNAL", 500),
    (14, "UNAVAILABLE", 503), (15, "DATA_LOSS", 500), (16, "UNAUTHENTICATED", 401),
]

struct GRPCCodeTests {
    @Test func thereAreSeventeenCodesMatchingTheReference() {
        #expect(GRPCCode.allCases.count == 17)
        for (number, name, http) in referenceCodes {
            let code = GRPCCode(rawValue: number)
            #expect(code?.name == name)
            #expect(code?.httpStatus == http)
            #expect(GRPCCode(name: name) == code)
        }
    }

    @Test(arguments: GRPCCode.allCases)
    func retryClassFollowsTheConsumerSDKGuide(code: GRPCCode) {
        let retryable: Set<GRPCCode> = [.aborted, .cancelled, .deadlineExceeded, .unavailable]
        switch code {
        case .ok: #expect(code.retryClass == .none)
        case _ where retryable.contains(code): #expect(code.retryClass == .retryable)
        default: #expect(code.retryClass == .client)
        }
        #expect(code.retryClass.isRetryable == retryable.contains(code))
    }

    @Test func clientErrorsNamedByTheGuideNeedAction() {
        for code in [GRPCCode.invalidArgument, .notFound, .permissionDenied, .resourceExhausted, .unauthenticated] {
            #expect(code.retryClass == .client)
            #expect(code.retryClass.advice == "needs action: the call will not succeed until you fix something")
        }
        #expect(GRPCCode.unavailable.retryClass.advice == "retry with backoff: the client recovers by itself")
    }

    /// Every spelling a person or a library might use, for every code.
    static func spellings(of name: String) -> [String] {
        let words = name.split(separator: "_").map { $0.lowercased() }
        let capitalised = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return [
            name,
            name.lowercased(),
            words.joined(separator: "-"),
            words.joined(separator: " "),
            capitalised.joined(),
            words[0] + capitalised.dropFirst().joined(),
            capitalised.joined(separator: "_"),
            "  \(name)  ",
            "StatusCode.\(name)",
            "GRPC_STATUS_\(name)",
        ]
    }

    @Test(arguments: GRPCCode.allCases)
    func everySpellingOfEveryNameIsRecognised(code: GRPCCode) {
        for spelling in Self.spellings(of: code.name) {
            #expect(GRPCCode(spelling: spelling) == code, "spelling '\(spelling)'")
        }
    }

    @Test func theBriefsSpellingsOfPermissionDenied() {
        for spelling in ["PERMISSION_DENIED", "permission-denied", "permission denied", "PermissionDenied",
                         "permissionDenied", "Permission_Denied"] {
            #expect(GRPCCode(spelling: spelling) == .permissionDenied, "spelling '\(spelling)'")
        }
    }

    @Test func americanCanceledIsCancelled() {
        #expect(GRPCCode(spelling: "CANCELED") == .cancelled)
        #expect(GRPCCode(spelling: "canceled") == .cancelled)
    }

    @Test(arguments: ["", "PERMISSION", "DENIED_PERMISSION", "permission_denie", "7", "INTERRUPTED", "___"])
    func nonNamesAreNotCodes(text: String) {
        #expect(GRPCCode(spelling: text) == nil)
    }

    @Test func canonicalSpellingSplitsWords() {
        #expect(GRPCCode.canonicalSpelling(of: "deadlineExceeded") == "DEADLINE_EXCEEDED")
        #expect(GRPCCode.canonicalSpelling(of: "--not  found--") == "NOT_FOUND")
        #expect(GRPCCode.canonicalSpelling(of: "Data.Loss") == "DATA_LOSS")
    }
}
