@testable import FleetEngine
import FleetErrors
import Testing

/// The filter parser's bounds: length, nesting and restrictions are refused before they can exhaust
/// a thread's stack, each as INVALID_ARGUMENT naming `filter` and where the fault is.
@Suite struct FilterBoundsTests {
    func failure(_ text: String) -> FleetError? {
        do {
            _ = try FilterExpression.parse(text)
            return nil
        } catch {
            return error as? FleetError
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = FilterExpression.maximumDepth
        let nested = String(repeating: "(", count: depth) + "attributes.a = b" + String(repeating: ")", count: depth)
        #expect(try FilterExpression.parse(nested) == .equals(key: "a", value: "b", negated: false))
        let nots = String(repeating: "NOT ", count: depth) + "attributes.a = b"
        _ = try FilterExpression.parse(nots)
    }

    @Test(arguments: [FilterExpression.maximumDepth + 1, 2_000, 10_000])
    func deeperParenthesesAreRefusedNamingThePosition(depth: Int) throws {
        let nested = String(repeating: "(", count: depth) + "attributes.a = b" + String(repeating: ")", count: depth)
        let error = try #require(failure(nested))
        #expect(error.code == .invalidArgument)
        #expect(error.field == "filter")
        #expect(error.message.contains("deeper than \(FilterExpression.maximumDepth)"), "\(error.message)")
        #expect(error.message.contains("at character \(FilterExpression.maximumDepth + 1)"), "\(error.message)")
    }

    @Test func unbalancedOpeningsAreRefusedBeforeParsing() throws {
        let error = try #require(failure(String(repeating: "(", count: 10_000)))
        #expect(error.message.contains("at character \(FilterExpression.maximumDepth + 1)"), "\(error.message)")
    }

    @Test func deepNOTChainsAreRefused() throws {
        for prefix in ["NOT ", "- "] {
            let error = try #require(failure(String(repeating: prefix, count: 1_000) + "attributes.a = b"))
            #expect(error.field == "filter")
            #expect(error.message.contains("deeper than \(FilterExpression.maximumDepth)"), "\(error.message)")
            #expect(error.message.contains("at character \(FilterExpression.maximumDepth * prefix.count + 1)"), "\(error.message)")
        }
    }

    @Test func restrictionsPastFiftyStopTheParse() throws {
        let fifty = (0..<50).map { "attributes.k\($0) = v" }.joined(separator: " AND ")
        _ = try FilterExpression.parse(fifty)
        let many = (0..<20_000).map { _ in "attributes.k = v" }.joined(separator: " OR ")
        let error = try #require(failure(String(many.prefix(FilterExpression.maximumLength))))
        #expect(error.message.contains("more than 50 restrictions"), "\(error.message)")
        #expect(error.message.contains("at character \(50 * " OR attributes.k = v".count + 1)"), "\(error.message)")
    }

    @Test func overLongFiltersAreRefusedBeforeTokenizing() throws {
        let long = "attributes.a = \"" + String(repeating: "x", count: FilterExpression.maximumLength) + "\""
        let error = try #require(failure(long))
        #expect(error.message.contains("at most \(FilterExpression.maximumLength)"), "\(error.message)")
    }

    @Test func syntaxErrorsNameTheirPosition() throws {
        #expect(failure("attributes.a = b )")?.message.contains("unexpected ')' at character 18") == true)
        #expect(failure("(attributes.a = b")?.message.contains("missing ')' at character 18") == true)
        #expect(failure("attributes.a = 'b")?.message.contains("string starting at character 16") == true)
        #expect(failure("tier = b")?.message.contains("at character 1") == true)
    }
}
