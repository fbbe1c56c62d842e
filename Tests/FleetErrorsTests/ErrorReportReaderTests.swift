import Testing
@testable import FleetErrors

struct ErrorReportReaderTests {
    private func reports(_ text: String) -> [ErrorReport] {
        guard case .reports(let reports) = ErrorReportReader.read(text) else { return [] }
        return reports
    }

    private func refusal(_ text: String) -> String? {
        guard case .unrecognised(let reason) = ErrorReportReader.read(text) else { return nil }
        return reason
    }

    @Test func fullGoogleErrorBody() throws {
        let body = #"""
        {"error": {"code": 404, "message": "Trip not found", "status": "NOT_FOUND",
          "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TRIP_NOT_FOUND",
                       "domain": "fleetengine.googleapis.com", "metadata": {"trip": "t1"}}]}}
        """#
        let report = try #require(reports(body).first)
        #expect(report.format == .googleErrorBody)
        #expect(report.httpStatus == 404)
        #expect(report.statusName == "NOT_FOUND")
        #expect(report.message == "Trip not found")
        #expect(report.reason == "TRIP_NOT_FOUND")
        #expect(report.domain == "fleetengine.googleapis.com")
        #expect(report.code == .notFound)
        #expect(report.likelyCauses.first?.id == "TRIP_NOT_FOUND")
    }

    @Test func bodyWithOnlyAnHTTPCodeTakesTheMostLikelyCode() throws {
        let report = try #require(reports(#"{"error":{"code":400,"message":"update_mask cannot be empty"}}"#).first)
        #expect(report.statusName == nil)
        #expect(report.code == .invalidArgument)
        #expect(report.likelyCauses.first?.id == "EMPTY_UPDATE_MASK")
    }

    @Test func bodyWithOnlyAStatus() throws {
        let report = try #require(reports(#"{"error":{"status":"FAILED_PRECONDITION","message":"Vehicle has active trips"}}"#).first)
        #expect(report.httpStatus == nil)
        #expect(report.code == .failedPrecondition)
        #expect(report.likelyCauses.first?.id == "VEHICLE_HAS_ACTIVE_TRIPS")
    }

    @Test func statusWinsOverASharedHTTPCode() throws {
        let report = try #require(reports(#"{"error":{"code":409,"status":"ABORTED","message":"x"}}"#).first)
        #expect(report.code == .aborted)
    }

    @Test func fieldViolationsAreReadAndMatched() throws {
        let body = #"""
        {"error":{"code":400,"status":"INVALID_ARGUMENT","message":"Request contains an invalid argument.",
          "details":[{"@type":"type.googleapis.com/google.rpc.BadRequest",
                      "fieldViolations":[{"field":"vehicle.vehicleState","description":"vehicleState is required"}]}]}}
        """#
        let report = try #require(reports(body).first)
        #expect(report.fieldViolations == [ErrorReport.FieldViolation(field: "vehicle.vehicleState", description: "vehicleState is required")])
        #expect(report.likelyCauses.first?.id == "MISSING_FIELD")
    }

    @Test func rpcStatusUsesTheGRPCNumber() throws {
        let report = try #require(reports(#"{"code": 16, "message": "JWT expired", "details": []}"#).first)
        #expect(report.format == .rpcStatus)
        #expect(report.grpcNumber == 16)
        #expect(report.code == .unauthenticated)
        #expect(report.likelyCauses.first?.id == "JWT_EXPIRED")
    }

    @Test func rpcStatusWithAnHTTPStatusCode() throws {
        let report = try #require(reports(#"{"code": 503, "message": "down"}"#).first)
        #expect(report.httpStatus == 503)
        #expect(report.code == .unavailable)
    }

    @Test func arrayOfBodies() {
        let found = reports(#"[{"error":{"code":403,"status":"PERMISSION_DENIED"}},{"error":{"code":401}}]"#)
        #expect(found.map(\.code) == [.permissionDenied, .unauthenticated])
    }

    @Test(arguments: [
        (#"{"error": {"code": 404"#, "not valid JSON"),
        (#"{"foo": 1}"#, "no \"error\" object"),
        (#"{"error": {"message": "no code"}}"#, "no \"error\" object"),
        ("[]", "no \"error\" object"),
        ("[1, 2]", "no \"error\" object"),
    ])
    func badJSONIsRefusedWithAReason(text: String, expected: String) {
        #expect(refusal(text)?.contains(expected) == true, "\(String(describing: refusal(text)))")
    }

    @Test func nsErrorLine() throws {
        let line = #"Error Domain=io.grpc Code=7 "JWT signed for another trip" UserInfo={NSLocalizedDescription=JWT signed for another trip}"#
        let report = try #require(reports(line).first)
        #expect(report.format == .nsError)
        #expect(report.grpcNumber == 7)
        #expect(report.domain == "io.grpc")
        #expect(report.message == "JWT signed for another trip")
        #expect(report.likelyCauses.first?.id == "JWT_FOR_OTHER_RESOURCE")
    }

    @Test func nsErrorWithEscapedQuotesAndOnlyUserInfo() throws {
        let escaped = try #require(reports(#"Error Domain=io.grpc Code=5 "Trip \"t1\" not found""#).first)
        #expect(escaped.message == #"Trip "t1" not found"#)
        let userInfo = try #require(reports("Error Domain=io.grpc Code=16 UserInfo={NSLocalizedDescription=JWT expired}").first)
        #expect(userInfo.message == "JWT expired")
        #expect(userInfo.code == .unauthenticated)
    }

    @Test(arguments: [
        (#"Error Domain=NSURLErrorDomain Code=-1009 "offline""#, "not io.grpc"),
        (#"Error Domain=io.grpc Code=42 "x""#, "not a gRPC code number"),
        (#"Error Domain=io.grpc "no code""#, "no Code="),
    ])
    func nsErrorsThatAreNotGRPCAreRefused(line: String, expected: String) {
        #expect(refusal(line)?.contains(expected) == true, "\(String(describing: refusal(line)))")
    }

    @Test func goAndJavaStatusLines() throws {
        let go = try #require(reports("rpc error: code = Unavailable desc = connection refused").first)
        #expect(go.statusName == "Unavailable")
        #expect(go.message == "connection refused")
        #expect(go.likelyCauses.first?.id == "SERVER_UNAVAILABLE")

        let java = try #require(reports("Status{code=NOT_FOUND, description=Vehicle not found, cause=null}").first)
        #expect(java.code == .notFound)
        #expect(java.message == "Vehicle not found")

        let exception = try #require(reports("io.grpc.StatusRuntimeException: UNAUTHENTICATED: JWT expired").first)
        #expect(exception.code == .unauthenticated)
        #expect(exception.message == "JWT expired")

        let numbered = try #require(reports("grpc status code=14").first)
        #expect(numbered.code == .unavailable)
    }

    @Test func severalLinesGiveSeveralReportsAndSkipNoise() {
        let log = """
        12:00:01 starting
        PERMISSION_DENIED: JWT signed for another trip
        some noise
        rpc error: code = DeadlineExceeded desc = context deadline exceeded
        """
        #expect(reports(log).map(\.code) == [.permissionDenied, .deadlineExceeded])
    }

    @Test func bareMessageIsRecognisedByItsWords() throws {
        let report = try #require(reports("update_mask cannot be empty").first)
        #expect(report.format == .message)
        #expect(report.code == .invalidArgument)
        #expect(report.likelyCauses.first?.id == "EMPTY_UPDATE_MASK")
    }

    @Test(arguments: ["", "   \n\t ", "hello world", "OK: fine", "code = Banana"])
    func unrecognisableTextIsRefused(text: String) {
        #expect(refusal(text) != nil)
    }

    @Test func emptyInputSaysSo() {
        #expect(refusal("\n") == "the input is empty")
    }
}
