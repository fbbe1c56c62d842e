import FleetErrors
import FleetInterface
import FleetModel
import FleetREST
import Foundation
import HTTPClient

extension RESTClient: HistoryReading {
    /// `GET /v1/{name}:history`, the project's history extension. A read: tried again as the
    /// retry policy allows; a server without the extension (Google's) answers 404, thrown as
    /// UNIMPLEMENTED.
    public func history(_ request: HistoryRequest) throws -> HistoryPage {
        _ = try HistorySubject(parsing: request.name)
        let path = "/v1/" + request.name.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.encode(String($0)) }.joined(separator: "/") + ":history"
        let target = RESTRequest(verb: "GET", path: path, query: request.queryItems).target
        var attempt = 0
        var forceRefresh = false
        while true {
            attempt += 1
            let call = HTTPClientRequest(method: .get, url: baseURL + target, headers: try headers(forceRefresh: forceRefresh), timeout: timeout)
            let error: FleetError
            switch Result(catching: { try http.send(call) }) {
            case .success(let response) where (200..<300).contains(response.status):
                do {
                    return try HistoryPage(json: try JSON.parse(response.body))
                } catch let bad as FleetError {
                    throw FleetError(.nonFleetResponse, detail: "the history answer did not decode: \(bad.message)")
                }
            case .success(let response):
                if response.status == 401, token != nil, !forceRefresh {
                    forceRefresh = true
                    continue
                }
                let answer = GoogleErrorBody.decode(status: response.status, body: response.body)
                if response.status == 404 && answer.cause == ErrorCause.unknownPath.id || response.status == 501 || response.status == 405 {
                    throw FleetError(.methodNotImplemented, detail: "the server keeps no position history (no :history extension)")
                }
                error = answer
            case .failure(let failure):
                error = failure as? FleetError ?? FleetError(.internalFault, detail: String(describing: failure))
            }
            guard retry.shouldRetry(error: error, afterAttempt: attempt, idempotent: true, mayHaveBeenSent: true) else { throw error }
            Thread.sleep(forTimeInterval: retry.delay(forAttempt: attempt) / .seconds(1))
        }
    }
}
