import Testing
@testable import FleetErrors
import FleetCatalogue

struct ErrorCatalogueTests {
    /// The catalogue as the executables see it: every module\'s causes composed in.
    init() { ProductCauses.install() }

    @Test func oneEntryPerCodeInNumberOrder() {
        #expect(ErrorCatalogue.entries.map(\.code) == GRPCCode.allCases)
        for entry in ErrorCatalogue.entries {
            #expect(ErrorCatalogue.entry(for: entry.code) == entry)
            #expect(ErrorCatalogue.entry(number: Int(entry.number)) == entry)
            #expect(ErrorCatalogue.entry(named: entry.name.lowercased()) == entry)
            #expect(!entry.description.isEmpty)
        }
        #expect(ErrorCatalogue.entry(number: 17) == nil)
        #expect(ErrorCatalogue.entry(number: -1) == nil)
        #expect(ErrorCatalogue.entry(named: "nope") == nil)
    }

    @Test func everyCauseSitsUnderItsOwnCodeOnce() {
        for entry in ErrorCatalogue.entries {
            for cause in entry.causes { #expect(cause.code == entry.code, "\(cause.id)") }
        }
        #expect(ErrorCatalogue.entries.flatMap(\.causes).count == ErrorCatalogue.causes.count)
    }

    @Test func causeIDsAreUniqueUpperSnakeCase() {
        let ids = ErrorCatalogue.causes.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }, "\(id)")
            #expect(!id.hasPrefix("_") && !id.hasSuffix("_"))
        }
    }

    @Test func causesHaveWordsAndPhrasesThatMatchThemselves() {
        for cause in ErrorCatalogue.causes {
            #expect(!cause.summary.isEmpty && !cause.remedy.isEmpty, "\(cause.id)")
            for phrase in cause.matchPhrases {
                #expect(!PhraseMatching.normalized(phrase).isEmpty, "\(cause.id): '\(phrase)'")
                #expect(ErrorCatalogue.likelyCauses(of: cause.code, message: phrase).contains(cause), "\(cause.id): '\(phrase)'")
            }
        }
    }

    /// The ids that were in Causes.swift before the catalogue grew: others build errors with them.
    @Test(arguments: ["INVALID_FIELD", "BAD_TRIP_NAME", "BAD_VEHICLE_NAME", "BAD_ID", "EMPTY_UPDATE_MASK",
                      "MALFORMED_JSON", "RESOURCE_NOT_FOUND", "ALREADY_EXISTS", "ILLEGAL_TRIP_STATUS_TRANSITION",
                      "CONCURRENT_MODIFICATION", "STORE_FAILURE", "STORE_BUSY"])
    func originalCauseIDsAreKept(id: String) {
        #expect(ErrorCatalogue.cause(id: id) != nil)
    }

    /// The causes the brief asks for, with the code each must have.
    @Test(arguments: [
        ("BAD_TRIP_NAME", GRPCCode.invalidArgument), ("BAD_VEHICLE_NAME", .invalidArgument), ("BAD_ID", .invalidArgument),
        ("TRIP_NOT_FOUND", .notFound), ("VEHICLE_NOT_FOUND", .notFound), ("JWT_MISSING", .permissionDenied),
        ("JWT_EXPIRED", .unauthenticated), ("JWT_WITHOUT_TRIP_ID", .unauthenticated),
        ("JWT_FOR_OTHER_RESOURCE", .permissionDenied), ("JWT_INVALID", .permissionDenied),
        ("API_NOT_ENABLED", .permissionDenied), ("INSUFFICIENT_ROLE", .permissionDenied),
        ("QUOTA_ZERO", .resourceExhausted), ("RATE_LIMIT_EXCEEDED", .resourceExhausted),
        ("SERVER_UNAVAILABLE", .unavailable), ("DEADLINE_TOO_SHORT", .deadlineExceeded),
        ("EMPTY_UPDATE_MASK", .invalidArgument), ("BAD_UPDATE_MASK_PATH", .invalidArgument),
        ("ILLEGAL_TRIP_STATUS_TRANSITION", .failedPrecondition),
        ("INTERMEDIATE_DESTINATIONS_VERSION_MISMATCH", .failedPrecondition), ("ALREADY_EXISTS", .alreadyExists),
        ("CONCURRENT_MODIFICATION", .aborted), ("REQUEST_TOO_LARGE", .invalidArgument),
        ("MALFORMED_JSON", .invalidArgument), ("STORE_FAILURE", .internal), ("STORE_BUSY", .unavailable),
        ("VEHICLE_HAS_ACTIVE_TRIPS", .failedPrecondition), ("TRIP_ACTIVE_AND_ASSIGNED", .failedPrecondition),
        ("METHOD_NOT_IMPLEMENTED", .unimplemented), ("STREAM_CANCELLED", .cancelled), ("STREAM_ABORTED", .aborted),
    ])
    func requiredCausesExistWithTheirCode(id: String, code: GRPCCode) {
        #expect(ErrorCatalogue.cause(id: id)?.code == code)
    }

    @Test func entriesForHTTPStatus() {
        #expect(ErrorCatalogue.entries(httpStatus: 400).map(\.name) == ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE"])
        #expect(ErrorCatalogue.entries(httpStatus: 302).isEmpty)
    }

    @Test func defaultQuotasAreInTheRemedy() {
        let remedy = ErrorCause.rateLimitExceeded.remedy
        for fact in ["Create* 3000", "List* 3000", "Get* 9000", "Search* 6000", "ReportBillableTrip 9000"] {
            #expect(remedy.contains(fact))
        }
    }
}
