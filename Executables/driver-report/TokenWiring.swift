import FleetDriver
import FleetErrors
import FleetModel
import Foundation
import HTTPClient

/// Turns the token options into a `DriverTokenSource`; `--token-url` fetches with the HTTP client.
enum TokenWiring {
    /// The token source for `settings`.
    /// - Throws: a `FleetError` when the HTTP client cannot start.
    static func source(for settings: DriverReportSettings) throws -> DriverTokenSource {
        let vehicleID = settings.vehicle.vehicleID
        switch settings.token {
        case .none:
            return DriverTokenSource(kind: .none, vehicleID: vehicleID)
        case .fixed(let token):
            return DriverTokenSource(kind: .fixed(token), vehicleID: vehicleID)
        case .file(let path):
            return DriverTokenSource(kind: .file(TokenFile(path: path)), vehicleID: vehicleID)
        case .url(let template, let tokenKey, let expiryKey):
            let client = try HTTPClient(configuration: HTTPClientConfiguration(defaultTimeout: .seconds(15), connectTimeout: .seconds(5)))
            let response = TokenResponse(tokenKey: tokenKey, expiryKey: expiryKey)
            let provider = settings.vehicle.provider
            let cache = TokenCache(now: { Date().timeIntervalSince1970 }) { vehicle in
                let url = template.replacingOccurrences(of: "{vehicle}", with: Self.escaped(vehicle))
                    .replacingOccurrences(of: "{provider}", with: Self.escaped(provider))
                let answer: HTTPClientResponse
                do {
                    answer = try client.send(HTTPClientRequest(url: url, headers: [(name: "Accept", value: "application/json")]))
                } catch let error as FleetError {
                    throw FleetError(.tokenSourceFailed, detail: "--token-url \(url): \(error.message)")
                }
                guard answer.isSuccess else {
                    throw FleetError(.tokenSourceFailed, detail: "--token-url \(url) answered HTTP \(answer.status): \(answer.bodyText.prefix(200))")
                }
                return try response.grant(from: answer.bodyText, now: Date().timeIntervalSince1970, source: "--token-url \(url)")
            }
            return DriverTokenSource(kind: .server(cache), vehicleID: vehicleID)
        }
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }
}
