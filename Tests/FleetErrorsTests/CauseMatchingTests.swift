import Testing
@testable import FleetErrors
import FleetCatalogue

struct CauseMatchingTests {
    /// The catalogue as the executables see it: every module\'s causes composed in.
    init() { ProductCauses.install() }

    @Test(arguments: [
        (GRPCCode.invalidArgument, "update_mask cannot be empty", "EMPTY_UPDATE_MASK"),
        (.invalidArgument, "Update mask cannot be empty", "EMPTY_UPDATE_MASK"),
        (.invalidArgument, "Invalid trip name: must be providers/{provider_id}/trips/{trip_id}", "BAD_TRIP_NAME"),
        (.invalidArgument, "Invalid vehicle name 'x'", "BAD_VEHICLE_NAME"),
        (.invalidArgument, "Invalid JSON payload received. Unexpected token.", "MALFORMED_JSON"),
        (.invalidArgument, "Request entity too large", "REQUEST_TOO_LARGE"),
        (.invalidArgument, "vehicleState is required", "MISSING_FIELD"),
        (.notFound, "Trip not found", "TRIP_NOT_FOUND"),
        (.notFound, "Vehicle not found: providers/p/vehicles/v", "VEHICLE_NOT_FOUND"),
        (.permissionDenied, "JWT signed for another trip", "JWT_FOR_OTHER_RESOURCE"),
        (.permissionDenied, "Fleet Engine API has not been used in project 123 or it is disabled", "API_NOT_ENABLED"),
        (.permissionDenied, "The caller does not have permission", "INSUFFICIENT_ROLE"),
        (.permissionDenied, "Invalid JWT signature", "JWT_INVALID"),
        (.unauthenticated, "JWT expired", "JWT_EXPIRED"),
        (.unauthenticated, "JWT signed without a trip ID", "JWT_WITHOUT_TRIP_ID"),
        (.permissionDenied, "Request is missing required authentication credential", "JWT_MISSING"),
        (.resourceExhausted, "Quota exceeded for quota metric 'Get requests' per minute", "RATE_LIMIT_EXCEEDED"),
        (.resourceExhausted, "The quota is 0 for this project", "QUOTA_ZERO"),
        (.failedPrecondition, "intermediateDestinationsVersion does not match", "INTERMEDIATE_DESTINATIONS_VERSION_MISMATCH"),
        (.failedPrecondition, "Cannot transition trip from COMPLETE to NEW", "ILLEGAL_TRIP_STATUS_TRANSITION"),
        (.failedPrecondition, "Vehicle has active trips assigned to it", "VEHICLE_HAS_ACTIVE_TRIPS"),
        (.failedPrecondition, "Trip is active and assigned to a vehicle", "TRIP_ACTIVE_AND_ASSIGNED"),
        (.aborted, "Server stopped sending", "STREAM_ABORTED"),
        (.unavailable, "connection refused", "SERVER_UNAVAILABLE"),
        (.unavailable, "database is locked", "STORE_BUSY"),
        (.deadlineExceeded, "Deadline exceeded after 2s", "DEADLINE_TOO_SHORT"),
        (.cancelled, "Call cancelled by the client", "STREAM_CANCELLED"),
        (.unimplemented, "Method not implemented", "METHOD_NOT_IMPLEMENTED"),
        (.dataLoss, "checksum mismatch in journal", "STORE_CORRUPTED"),
    ])
    func messageNamesTheBestCause(code: GRPCCode, message: String, id: String) {
        #expect(ErrorCatalogue.likelyCauses(of: code, message: message).first?.id == id, "'\(message)'")
    }

    @Test func reasonBeatsMessageWords() {
        let causes = ErrorCatalogue.likelyCauses(of: .notFound, message: "Vehicle not found", reason: "TRIP_NOT_FOUND")
        #expect(causes.first?.id == "TRIP_NOT_FOUND")
        #expect(causes.contains { $0.id == "VEHICLE_NOT_FOUND" })
    }

    @Test func googleReasonsMatchPhrases() {
        #expect(ErrorCatalogue.likelyCauses(of: .permissionDenied, message: nil, reason: "SERVICE_DISABLED").first?.id == "API_NOT_ENABLED")
        #expect(ErrorCatalogue.likelyCauses(of: .resourceExhausted, message: "", reason: "RATE_LIMIT_EXCEEDED").first?.id == "RATE_LIMIT_EXCEEDED")
    }

    @Test func unrelatedMessagesMatchNothing() {
        #expect(ErrorCatalogue.likelyCauses(of: .notFound, message: "lorem ipsum").isEmpty)
        #expect(ErrorCatalogue.likelyCauses(of: .ok, message: "not found").isEmpty)
        #expect(ErrorCatalogue.likelyCauses(of: .outOfRange, message: nil).isEmpty)
    }

    @Test func matchingOnlyLooksAtTheCodesCauses() {
        // "expired" is a phrase of JWT_EXPIRED (UNAUTHENTICATED), not of any NOT_FOUND cause.
        #expect(ErrorCatalogue.likelyCauses(of: .notFound, message: "JWT expired").isEmpty)
    }

    @Test func bareMessagesSearchEveryCause() {
        #expect(ErrorCatalogue.likelyCauses(message: "update_mask cannot be empty").first?.id == "EMPTY_UPDATE_MASK")
        #expect(ErrorCatalogue.likelyCauses(message: "zzz").isEmpty)
    }

    @Test func phrasesMatchWholeWordsOnly() {
        #expect(PhraseMatching.contains("the controller failed", phrase: "role") == false)
        #expect(PhraseMatching.contains("bad role here", phrase: "role"))
        #expect(PhraseMatching.contains("role", phrase: "role"))
        #expect(PhraseMatching.contains("providers/p/trips/t", phrase: "/trips/"))
        #expect(PhraseMatching.contains("upstream closed", phrase: "stream") == false)
        #expect(PhraseMatching.contains("", phrase: "x") == false)
        #expect(ErrorCatalogue.likelyCauses(of: .permissionDenied, message: "controller says no").isEmpty)
    }

    @Test func normalisationIgnoresCaseUnderscoresDashesAndSpacing() {
        #expect(PhraseMatching.normalized("  Update_Mask--cannot \t be   EMPTY ") == "update mask cannot be empty")
        #expect(PhraseMatching.normalized("") == "")
    }
}
