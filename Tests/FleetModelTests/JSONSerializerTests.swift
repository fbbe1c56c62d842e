import FleetModel
import Testing

@Suite("JSON serializer and JSONObject")
struct JSONSerializerTests {
    @Test func writesCompactJSON() {
        let json: JSON = ["name": "providers/p/vehicles/v", "ok": true, "n": nil, "list": [1, 2.5, "x"], "empty": [], "obj": .object([:])]
        #expect(json.serialized() == #"{"name":"providers/p/vehicles/v","ok":true,"n":null,"list":[1,2.5,"x"],"empty":[],"obj":{}}"#)
        #expect(json.serializedBytes() == Array(json.serialized().utf8))
    }

    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let text = "q\"b\\s/\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}é😀"
        #expect(JSON.string(text).serialized() == #""q\"b\\s/\b\f\n\r\t\u0000\u001f"# + "\u{7F}é😀\"")
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "-0"), (1, "1"), (-42, "-42"), (12.5, "12.5"), (0.1, "0.1"), (1e-7, "1e-07"),
        (9_007_199_254_740_992, "9007199254740992"), (-9_007_199_254_740_992, "-9007199254740992"),
        (9_007_199_254_740_994, "9.007199254740994e+15"), (1e21, "1e+21"), (123456789.125, "123456789.125"),
        (.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    ])
    func writesNumbersInShortestForm(value: Double, text: String) throws {
        #expect(JSON.number(value).serialized() == text)
        let reparsed = try #require(try JSON.parse(text).doubleValue)
        #expect(reparsed == value && reparsed.sign == value.sign)
    }

    @Test func writesNonFiniteNumbersAsProto3Strings() {
        #expect(JSON.number(.nan).serialized() == #""NaN""#)
        #expect(JSON.number(.infinity).serialized() == #""Infinity""#)
        #expect(JSON.number(-.infinity).serialized() == #""-Infinity""#)
    }

    @Test func prettyPrintsWithTwoSpaces() {
        let json: JSON = ["a": [1, ["b": nil]], "c": [], "d": .object([:])]
        #expect(json.prettyPrinted() == """
            {
              "a": [
                1,
                {
                  "b": null
                }
              ],
              "c": [],
              "d": {}
            }
            """)
    }

    @Test func roundTripsThroughText() throws {
        let json: JSON = [
            "text": "line\nbreak \"quoted\" \\ é 😀 \u{1}", "numbers": [0, -0.5, 1e300, 12345678, 0.30000000000000004],
            "nested": ["deeper": ["deepest": [true, false, nil]]], "emptyString": "",
        ]
        #expect(try JSON.parse(json.serialized()) == json)
        #expect(try JSON.parse(json.prettyPrinted()) == json)
        #expect(try JSON.parse(json.serializedBytes()) == json)
    }

    @Test func objectsCompareIgnoringOrderButKeepIt() {
        let first: JSON = ["a": 1, "b": 2]
        let second: JSON = ["b": 2, "a": 1]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.serialized() != second.serialized())
        #expect(first != ["a": 1, "b": 3])
        #expect(first != ["a": 1])
    }

    @Test func objectSubscriptReplacesAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = "one"
        object["c"] = 3
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == "one")
        #expect(object.insertNew(key: "a", value: 9) == false)
        #expect(object.insertNew(key: "d", value: 4) == true)
        #expect(object.map(\.key) == ["a", "c", "d"])
    }

    @Test func largeObjectsLookUpThroughAnIndex() throws {
        var object = JSONObject()
        for index in 0..<100 { object["key\(index)"] = .number(Double(index)) }
        #expect(object["key77"] == 77)
        object["key10"] = nil
        #expect(object["key10"] == nil)
        #expect(object["key99"] == 99)
        #expect(object.count == 99)
        let text = JSON.object(object).serialized()
        #expect(try JSON.parse(text) == .object(object))
        let duplicate = "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k3\":0}"
        #expect(throws: (any Error).self) { try JSON.parse(duplicate) }
    }

    @Test func accessorsReturnNilForOtherKinds() {
        let json: JSON = ["n": 3, "s": "x"]
        #expect(json["n"]?.intValue == 3)
        #expect(JSON.number(3.5).intValue == nil)
        #expect(json["s"]?.doubleValue == nil)
        #expect(json[0] == nil)
        #expect(json["missing"] == nil)
        #expect(JSON.array([1])[1] == nil)
        #expect(json.kindDescription == "an object")
    }
}
