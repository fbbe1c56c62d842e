import Foundation
import Testing
@testable import FleetErrors
import FleetCatalogue
import FleetJSON

struct ExplanationTests {
    /// The catalogue as the executables see it: every module\'s causes composed in.
    init() { ProductCauses.install() }

    private func explained(_ argument: String, stdin: String = "") throws -> [ErrorExplanation] {
        guard case .explained(let list) = ErrorCatalogue.explain(argument: argument, readStandardInput: { stdin }) else {
            Issue.record("'\(argument)' was not explained")
            return []
        }
        return list
    }

    @Test func codeNumberAndStatusArguments() throws {
        #expect(try explained("7").map(\.entry.code) == [.permissionDenied])
        #expect(try explained("403").map(\.entry.code) == [.permissionDenied])
        #expect(try explained("400").map(\.entry.code) == [.invalidArgument, .failedPrecondition, .outOfRange])
        #expect(try explained("400").allSatisfy { $0.note != nil && $0.input == "400" })
        #expect(try explained("PermissionDenied").first?.report == nil)
    }

    @Test func standardInputIsReadOnlyForDash() throws {
        final class Counter: @unchecked Sendable { var reads = 0 }
        let counter = Counter()
        _ = ErrorCatalogue.explain(argument: "7") { counter.reads += 1; return "" }
        #expect(counter.reads == 0)
        let list = try explained("-", stdin: #"{"error":{"code":404,"message":"Trip not found","status":"NOT_FOUND"}}"#)
        #expect(list.first?.entry.code == .notFound)
        #expect(list.first?.matchedCauses.first?.id == "TRIP_NOT_FOUND")
        #expect(list.first?.otherCauses.contains { $0.id == "TRIP_NOT_FOUND" } == false)
        #expect(list.first?.otherCauses.contains { $0.id == "VEHICLE_NOT_FOUND" } == true)
    }

    @Test func readFailuresPropagate() {
        struct Broken: Error {}
        #expect(throws: Broken.self) { try ErrorCatalogue.explain(argument: "-") { throw Broken() } }
    }

    @Test func unknownStatusNameInABodyIsUnrecognised() {
        let outcome = ErrorCatalogue.explain(text: #"{"error":{"status":"TEAPOT"}}"#)
        guard case .unrecognised(let input, let reason) = outcome else {
            Issue.record("should be unrecognised")
            return
        }
        #expect(input == "-")
        #expect(reason.contains("TEAPOT"))
    }

    @Test func fleetErrorExplanationUsesItsCause() {
        let error = FleetError(.tripNotFound, detail: "providers/p/trips/t")
        #expect(error.catalogueCause == .tripNotFound)
        #expect(error.explanation.entry.code == .notFound)
        #expect(error.explanation.matchedCauses == [.tripNotFound])
        let plain = FleetError(code: .unauthenticated, message: "JWT expired")
        #expect(plain.catalogueCause == nil)
        #expect(plain.explanation.matchedCauses.first == .jwtExpired)
    }

    // MARK: JSON

    private func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test func objectHasTheDocumentedKeysInOrder() throws {
        let text = ExplanationJSON.object(try explained("7")[0])
        let object = try #require(try parse(text) as? [String: Any])
        #expect(object["code"] as? String == "PERMISSION_DENIED")
        #expect(object["number"] as? Int == 7)
        #expect(object["httpStatus"] as? Int == 403)
        #expect(object["retryClass"] as? String == "client")
        #expect(object["retryable"] as? Bool == false)
        #expect((object["causes"] as? [[String: Any]])?.first?["id"] as? String == "JWT_FOR_OTHER_RESOURCE")
        #expect(object["matchedCauses"] == nil)
        let keys = ["\"input\"", "\"code\"", "\"number\"", "\"httpStatus\"", "\"retryClass\"", "\"retryable\"", "\"description\"", "\"causes\""]
        let positions = keys.map { text.firstRange(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test func reportObjectsCarryMatchedCauses() throws {
        let list = try explained("-", stdin: #"Error Domain=io.grpc Code=16 "JWT expired""#)
        let object = try #require(try parse(ExplanationJSON.object(list[0])) as? [String: Any])
        let report = try #require(object["report"] as? [String: Any])
        #expect(report["format"] as? String == "nsError")
        #expect(report["grpcNumber"] as? Int == 16)
        #expect((object["matchedCauses"] as? [[String: Any]])?.first?["id"] as? String == "JWT_EXPIRED")
    }

    @Test func arraysAndTheCatalogue() throws {
        let array = try #require(try parse(ExplanationJSON.array(try explained("500"))) as? [[String: Any]])
        #expect(array.map { $0["code"] as? String } == ["INTERNAL", "UNKNOWN", "DATA_LOSS"])
        let catalogue = try #require(try parse(ExplanationJSON.catalogue()) as? [[String: Any]])
        #expect(catalogue.count == 17)
        #expect(catalogue.map { $0["number"] as? Int } == Array(0...16))
        #expect(catalogue.allSatisfy { $0["input"] == nil })
    }

    @Test func stringsAreEscaped() throws {
        let nasty = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{0} del \u{7F} sep \u{2028} é 🚕"
        let oneLine = "quote \" backslash \\ tab \t bell \u{07} nul \u{0} del \u{7F} é 🚕"
        let list = try explained("-", stdin: "PERMISSION_DENIED: " + oneLine)
        let text = ExplanationJSON.object(list[0])
        let object = try #require(try parse(text) as? [String: Any])
        let report = try #require(object["report"] as? [String: Any])
        #expect(report["message"] as? String == oneLine)
        let direct = JSON.string(nasty).serialized()
        #expect(try parse(direct) as? String == nasty)
        #expect(!direct.contains("\n"))
    }
}
