import Testing
@testable import FleetErrors

struct HTTPStatusMappingTests {
    @Test func sharedStatusesListEveryCodeMostLikelyFirst() {
        #expect(HTTPStatusMapping.mapping(for: 400)?.codes == [.invalidArgument, .failedPrecondition, .outOfRange])
        #expect(HTTPStatusMapping.mapping(for: 409)?.codes == [.alreadyExists, .aborted])
        #expect(HTTPStatusMapping.mapping(for: 500)?.codes == [.internal, .unknown, .dataLoss])
    }

    @Test(arguments: [(401, GRPCCode.unauthenticated), (403, .permissionDenied), (404, .notFound),
                      (429, .resourceExhausted), (503, .unavailable), (504, .deadlineExceeded),
                      (499, .cancelled), (501, .unimplemented), (200, .ok)])
    func directStatuses(status: Int, code: GRPCCode) {
        let mapping = HTTPStatusMapping.mapping(for: status)
        #expect(mapping?.codes == [code])
        #expect(mapping?.isDirect == true)
    }

    @Test(arguments: [(413, [GRPCCode.invalidArgument, .resourceExhausted]), (502, [.unavailable]),
                      (408, [.deadlineExceeded]), (405, [.unimplemented]), (412, [.failedPrecondition]),
                      (416, [.outOfRange]), (415, [.invalidArgument]), (418, [.unknown]), (507, [.unknown])])
    func gatewayStatusesAreNotDirectAndCarryANote(status: Int, codes: [GRPCCode]) {
        let mapping = HTTPStatusMapping.mapping(for: status)
        #expect(mapping?.codes == codes)
        #expect(mapping?.isDirect == false)
        #expect(mapping?.note?.isEmpty == false)
    }

    @Test(arguments: GRPCCode.allCases)
    func everyCodesOwnStatusMapsBackToIt(code: GRPCCode) {
        let mapping = HTTPStatusMapping.mapping(for: code.httpStatus)
        #expect(mapping?.codes.contains(code) == true)
        #expect(mapping?.isDirect == true)
    }

    @Test(arguments: [100, 201, 204, 301, 302, 304, 399, 99, 600, 0])
    func nonErrorStatusesHaveNoMapping(status: Int) {
        #expect(HTTPStatusMapping.mapping(for: status) == nil)
    }

    @Test func tableIsSortedAndHasNoDuplicates() {
        let statuses = HTTPStatusMapping.table.map(\.status)
        #expect(statuses == statuses.sorted())
        #expect(Set(statuses).count == statuses.count)
    }
}
