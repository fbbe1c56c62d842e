import Testing
@testable import FleetErrors

struct ErrorQueryTests {
    @Test(arguments: 0...16)
    func numbersZeroToSixteenAreGRPCNumbers(number: Int) {
        #expect(ErrorQuery(argument: String(number)) == .code(GRPCCode(rawValue: Int32(number))!))
        #expect(ErrorQuery(argument: "io.grpc:\(number)") == .code(GRPCCode(rawValue: Int32(number))!))
        #expect(ErrorQuery(argument: "io.grpc/\(number)") == .code(GRPCCode(rawValue: Int32(number))!))
        #expect(ErrorQuery(argument: "grpc:\(number)") == .code(GRPCCode(rawValue: Int32(number))!))
    }

    @Test func everyStatusFrom100To599IsMappedOrRefusedClearly() {
        for status in 100...599 {
            let query = ErrorQuery(argument: String(status))
            if let mapping = HTTPStatusMapping.mapping(for: status) {
                #expect(query == .httpStatus(mapping))
                #expect(!query.entries.isEmpty)
            } else {
                guard case .unrecognised(_, let reason) = query else {
                    Issue.record("HTTP \(status) should be refused")
                    continue
                }
                #expect(reason.contains("not an error status"), "HTTP \(status): \(reason)")
                #expect(status < 400 && status != 200)
            }
        }
    }

    @Test(arguments: [17, 42, 99, 600, 1000, -1])
    func numbersOutsideBothRangesAreUnrecognised(number: Int) {
        guard case .unrecognised(let input, let reason) = ErrorQuery(argument: String(number)) else {
            Issue.record("\(number) should be unrecognised")
            return
        }
        #expect(input == String(number))
        #expect(reason.contains("neither"))
    }

    @Test func forcedForms() {
        #expect(ErrorQuery(argument: "http:404").entries.map(\.code) == [.notFound])
        #expect(ErrorQuery(argument: "HTTP 503").entries.map(\.code) == [.unavailable])
        #expect(ErrorQuery(argument: "io.grpc:UNAVAILABLE") == .code(.unavailable))
        #expect(ErrorQuery(argument: " 7 ") == .code(.permissionDenied))
    }

    @Test(arguments: [
        ("io.grpc:17", "0 to 16"), ("io.grpc:x", "not a gRPC code"), ("http:7", "not an HTTP status"),
        ("http:abc", "not an HTTP status number"), ("", "empty"), ("   ", "empty"), ("teapot", "not a gRPC code name"),
        ("302", "not an error status"),
    ])
    func failuresSayWhatWasWrong(argument: String, expected: String) {
        guard case .unrecognised(let input, let reason) = ErrorQuery(argument: argument) else {
            Issue.record("'\(argument)' should be unrecognised")
            return
        }
        #expect(input == argument)
        #expect(reason.contains(expected), "reason: \(reason)")
    }

    @Test func dashIsStandardInput() {
        #expect(ErrorQuery(argument: "-") == .standardInput)
        #expect(ErrorQuery(argument: "-").entries.isEmpty)
    }

    @Test func namesInAnySpelling() {
        #expect(ErrorQuery(argument: "permission-denied") == .code(.permissionDenied))
        #expect(ErrorQuery(argument: "Unauthenticated").entries.map(\.httpStatus) == [401])
    }
}
