import FleetErrors
import Testing

/// Runs `body` and returns the FleetError it threw, recording an issue when it threw none, another
/// error, or one whose code, field or message is not the one expected.
@discardableResult
public func expectFleetError(_ code: GRPCCode, field: String? = nil, containing text: String? = nil,
                             sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> FleetError? {
    do {
        try body()
        Issue.record("expected \(code.name), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as FleetError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let field { #expect(error.field == field, "field of \(error)", sourceLocation: sourceLocation) }
        if let text { #expect(error.message.contains(text), "message of \(error)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record("expected FleetError \(code.name), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
