import Testing
@testable import FleetErrors

struct ExitCodeTests {
    @Test func fixedCodes() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.failure.rawValue == 1)
        #expect(ExitCode.usage.rawValue == 2)
    }

    @Test(arguments: GRPCCode.allCases)
    func grpcCodesAreTenPlusTheirNumber(code: GRPCCode) {
        let exit = ExitCode(code)
        if code == .ok {
            #expect(exit == .success)
            #expect(ExitCode(FleetError(code: .ok, message: "odd")) == .failure)
        } else {
            #expect(exit.rawValue == 10 + code.rawValue)
            #expect(exit.grpcCode == code)
            #expect(ExitCode(FleetError(code: code, message: "x")) == exit)
            #expect(exit.meaning.contains(code.name))
        }
    }

    @Test func examplesFromTheBrief() {
        #expect(ExitCode(.invalidArgument).rawValue == 13)
        #expect(ExitCode(.notFound).rawValue == 15)
        #expect(ExitCode(.permissionDenied).rawValue == 17)
        #expect(ExitCode(.unavailable).rawValue == 24)
        #expect(ExitCode(.unauthenticated).rawValue == 26)
    }

    @Test func nonGRPCExitCodesHaveNoCode() {
        for raw: Int32 in [0, 1, 2, 3, 9, 10, 27, 255] {
            #expect(ExitCode(rawValue: raw).grpcCode == nil, "\(raw)")
        }
    }

    @Test func tableListsEveryUsedCodeOnceInOrder() {
        #expect(ExitCode.allUsed.count == 19)
        #expect(ExitCode.allUsed == ExitCode.allUsed.sorted())
        let rows = ExitCode.markdownTable.split(separator: "\n").dropFirst(2)
        #expect(rows.count == 19)
        #expect(rows.first == "| 0 | success |")
        #expect(rows.last == "| 26 | UNAUTHENTICATED (gRPC 16) |")
    }
}
