import Foundation
import APIServer
import Testing

/// The answers the HTTP layer gives by itself carry Google's error body with the matching status.
@Suite struct ServerErrorBodyTests {
    @Test(arguments: [(413, "\"status\":\"INVALID_ARGUMENT\""), (503, "\"status\":\"UNAVAILABLE\""), (400, "\"status\":\"INVALID_ARGUMENT\"")])
    func theHTTPLayersOwnAnswersUseGooglesErrorBody(_ status: Int, _ expected: String) {
        let response = FleetServer.errorBody(status: status, message: "the server stopped before the call finished")
        #expect(response.status == status)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains(expected), "\(text)")
        #expect(text.contains("the server stopped before the call finished"))
    }
}
