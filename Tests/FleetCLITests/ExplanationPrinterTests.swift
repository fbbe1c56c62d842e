import FleetErrors
import Testing
@testable import FleetCLI

struct ExplanationPrinterTests {
    private func explained(_ argument: String, stdin: String = "") -> [ErrorExplanation] {
        guard case .explained(let list) = ErrorCatalogue.explain(argument: argument, readStandardInput: { stdin }) else { return [] }
        return list
    }

    @Test func oneCode() {
        let text = ExplanationPrinter.text(explained("403"), style: .plain)
        #expect(text.hasPrefix("PERMISSION_DENIED  gRPC 7, HTTP 403\n  Retry: needs action: the call will not succeed until you fix something\n"))
        for cause in ErrorCatalogue.entry(for: .permissionDenied).causes {
            #expect(text.contains("  - \(cause.id): "))
        }
        #expect(text.contains("    Remedy: "))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= TextLayout.width })
        #expect(!text.contains("\u{1B}"))
    }

    @Test func sharedStatusGetsAHeadingNamingEveryCode() {
        let text = ExplanationPrinter.text(explained("400"), style: .plain)
        #expect(text.hasPrefix("HTTP 400 stands for 3 codes, most likely first: INVALID_ARGUMENT,\nFAILED_PRECONDITION, OUT_OF_RANGE."))
        let positions = ["INVALID_ARGUMENT  gRPC 3", "FAILED_PRECONDITION  gRPC 9", "OUT_OF_RANGE  gRPC 11"].map { text.firstRange(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test func singleGatewayStatusShowsItsNote() {
        let text = ExplanationPrinter.text(explained("502"), style: .plain)
        #expect(text.contains("  Note: 502 Bad Gateway"))
    }

    @Test func reportsPutLikelyCausesFirst() {
        let text = ExplanationPrinter.text(explained("-", stdin: #"{"error":{"code":404,"message":"Trip not found","status":"NOT_FOUND","details":[{"reason":"TRIP_NOT_FOUND"}]}}"#), style: .plain)
        #expect(text.hasPrefix("Read: Google error body, HTTP 404, status NOT_FOUND: \"Trip not found\" (reason\nTRIP_NOT_FOUND)\nNOT_FOUND  gRPC 5, HTTP 404\n"))
        let likely = text.firstRange(of: "Likely causes, best first:")
        let trip = text.firstRange(of: "- TRIP_NOT_FOUND")
        let others = text.firstRange(of: "Other causes of NOT_FOUND:")
        let vehicle = text.firstRange(of: "- VEHICLE_NOT_FOUND")
        #expect(likely != nil && trip != nil && others != nil && vehicle != nil)
        if let likely, let trip, let others, let vehicle {
            #expect(likely.lowerBound < trip.lowerBound && trip.lowerBound < others.lowerBound && others.lowerBound < vehicle.lowerBound)
        }
    }

    @Test func reportsWithNoRecognisedCauseListThemAll() {
        let text = ExplanationPrinter.text(explained("-", stdin: "Error Domain=io.grpc Code=5 \"zzz\""), style: .plain)
        #expect(text.contains("No cause recognised in the message; the causes of NOT_FOUND:"))
        #expect(text.contains("- TRIP_NOT_FOUND"))
        let out = ExplanationPrinter.text(explained("-", stdin: "Error Domain=io.grpc Code=11 \"zzz\""), style: .plain)
        #expect(out.contains("No cause recognised in the message."))
    }

    @Test func codesWithoutCauses() {
        #expect(ExplanationPrinter.text(explained("0"), style: .plain).contains("Nothing to fix."))
        #expect(ExplanationPrinter.text(explained("11"), style: .plain).contains("No Fleet Engine cause of its own."))
    }

    @Test func colourOnlyWhenStyled() {
        let coloured = ExplanationPrinter.text(explained("14"), style: Style(enabled: true))
        #expect(coloured.contains("\u{1B}[1m\u{1B}[33mUNAVAILABLE"))
        #expect(ExplanationPrinter.table(style: Style(enabled: true)).contains("\u{1B}["))
        #expect(!ExplanationPrinter.table(style: .plain).contains("\u{1B}["))
    }

    @Test func tableListsAllSeventeen() {
        let lines = ExplanationPrinter.table(style: .plain).split(separator: "\n")
        #expect(lines.count == 18)
        #expect(lines[0] == "gRPC  NAME                 HTTP  RETRY")
        #expect(lines[1] == "   0  OK                   200   not an error")
        #expect(lines[8] == "   7  PERMISSION_DENIED    403   needs action")
        #expect(lines[15] == "  14  UNAVAILABLE          503   retry with backoff")
    }

    @Test func errorReportForAFleetError() {
        let error = FleetError(.badTripName, detail: "got 'x'", field: "name")
        let text = ExplanationPrinter.errorReport(error, toolName: "tool", style: .plain)
        #expect(text == """
            tool: INVALID_ARGUMENT: The trip name is not of the form
            providers/{provider_id}/trips/{trip_id}: got 'x'
              gRPC 3, HTTP 400; needs action: the call will not succeed until you fix
              something
              Field: name
              Cause: BAD_TRIP_NAME: The trip name is not of the form
              providers/{provider_id}/trips/{trip_id}
              Remedy: Use the full resource name; the provider must be the provider's Cloud
              project ID.

            """)
        let unknown = ExplanationPrinter.errorReport(FleetError(code: .outOfRange, message: "past the end"), toolName: "tool", style: .plain)
        #expect(unknown.contains("Run 'error-explain OUT_OF_RANGE' for its causes."))
    }
}
