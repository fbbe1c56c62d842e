import FleetModel
import Foundation
import Testing

/// The Swift half of the conformance check against Google's own message types (Tests/conformance/run.sh).
///
/// - `FLEET_CONFORMANCE_DIR`: write every sample (every message, every variant) as `<Message>.<variant>.json`,
///   and again with enums as numbers (`enum-encoding=int`) as `<Message>.<variant>-ints.json`.
/// - `FLEET_CONFORMANCE_GOOGLE_DIR`: decode every `<Message>.<label>.json` that Google's Python types wrote,
///   with unknown fields rejected; with `FLEET_CONFORMANCE_REENCODED_DIR` also set, write our re-encoding of
///   each there under the same name, for the Python side to compare with Google's original.
/// - `FLEET_CONFORMANCE_BINARY_DIR`: write every sample in the binary form as `<Message>.<variant>.bin`, beside
///   its JSON as `<Message>.<variant>.json` (check_binary.py check-swift).
/// - `FLEET_CONFORMANCE_GOOGLE_BINARY_DIR`: decode every `<Message>.<label>.bin` that Google's types wrote;
///   with `FLEET_CONFORMANCE_REENCODED_BINARY_DIR` also set, write there our JSON (`.json`) and our binary
///   re-encoding (`.bin`) of each, for the Python side to compare (check_binary.py compare).
@Suite("Conformance")
struct ConformanceTests {
    private static let environment = ProcessInfo.processInfo.environment

    @Test func samplesSurviveTextRoundTrips() throws {
        for sample in SampleCase.all {
            for variant in 0..<SampleCase.variantCount {
                let json = sample.sampleJSON(variant)
                let reparsed = try JSON.parse(json.serialized())
                #expect(try sample.reencode(reparsed, DecodingOptions()) == json, "\(sample.swiftName) variant \(variant)")
            }
        }
    }

    @Test(.enabled(if: environment["FLEET_CONFORMANCE_DIR"] != nil))
    func writeSwiftSamples() throws {
        let directory = URL(fileURLWithPath: try #require(Self.environment["FLEET_CONFORMANCE_DIR"]), isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written = 0
        for sample in SampleCase.all {
            for variant in 0..<SampleCase.variantCount {
                let file = directory.appendingPathComponent("\(sample.protoName).\(variant).json")
                try Data(sample.sampleJSON(variant).prettyPrinted().utf8).write(to: file)
                // The same sample as a REST answer to `$alt=json;enum-encoding=int`: enums as numbers.
                try Data(sample.textWithEnumNumbers(variant)).write(to: directory.appendingPathComponent("\(sample.protoName).\(variant)-ints.json"))
                written += 2
            }
        }
        #expect(written == 2 * SampleCase.all.count * SampleCase.variantCount)
    }

    @Test(.enabled(if: environment["FLEET_CONFORMANCE_GOOGLE_DIR"] != nil))
    func decodeGoogleOutput() throws {
        let directory = URL(fileURLWithPath: try #require(Self.environment["FLEET_CONFORMANCE_GOOGLE_DIR"]), isDirectory: true)
        let output = Self.environment["FLEET_CONFORMANCE_REENCODED_DIR"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let output { try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true) }
        let casesByName = Dictionary(uniqueKeysWithValues: SampleCase.all.map { ($0.protoName, $0) })
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(!files.isEmpty, "no files in \(directory.path)")
        var decodedTypes = Set<String>()
        for file in files {
            // <Message>.<label>.json, where <Message> may itself contain dots (Vehicle.VehicleType).
            let stem = String(file.dropLast(".json".count))
            guard let dot = stem.lastIndex(of: "."), let sample = casesByName[String(stem[..<dot])] else {
                Issue.record("\(file): no Swift message for this name")
                continue
            }
            do {
                let json = try JSON.parse(Data(contentsOf: directory.appendingPathComponent(file)))
                let reencoded = try sample.reencode(json, DecodingOptions(ignoreUnknownFields: false))
                decodedTypes.insert(sample.protoName)
                if let output {
                    try Data(reencoded.prettyPrinted().utf8).write(to: output.appendingPathComponent(file))
                }
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
        #expect(decodedTypes == Set(casesByName.keys), "message types with no Google file: \(Set(casesByName.keys).subtracting(decodedTypes).sorted())")
    }

    @Test(.enabled(if: environment["FLEET_CONFORMANCE_BINARY_DIR"] != nil))
    func writeSwiftBinarySamples() throws {
        let directory = URL(fileURLWithPath: try #require(Self.environment["FLEET_CONFORMANCE_BINARY_DIR"]), isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for sample in SampleCase.all {
            for variant in 0..<SampleCase.variantCount {
                let stem = "\(sample.protoName).\(variant)"
                try Data(sample.sampleProtobuf(variant)).write(to: directory.appendingPathComponent("\(stem).bin"))
                try Data(sample.sampleJSON(variant).serialized().utf8).write(to: directory.appendingPathComponent("\(stem).json"))
            }
        }
    }

    @Test(.enabled(if: environment["FLEET_CONFORMANCE_GOOGLE_BINARY_DIR"] != nil))
    func decodeGoogleBinary() throws {
        let directory = URL(fileURLWithPath: try #require(Self.environment["FLEET_CONFORMANCE_GOOGLE_BINARY_DIR"]), isDirectory: true)
        let output = Self.environment["FLEET_CONFORMANCE_REENCODED_BINARY_DIR"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let output { try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true) }
        let casesByName = Dictionary(uniqueKeysWithValues: SampleCase.all.map { ($0.protoName, $0) })
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".bin") }.sorted()
        #expect(!files.isEmpty, "no files in \(directory.path)")
        var decodedTypes = Set<String>()
        for file in files {
            let stem = String(file.dropLast(".bin".count))
            guard let dot = stem.lastIndex(of: "."), let sample = casesByName[String(stem[..<dot])] else {
                Issue.record("\(file): no Swift message for this name")
                continue
            }
            do {
                let decoded = try sample.decodeProtobuf(Array(Data(contentsOf: directory.appendingPathComponent(file))))
                decodedTypes.insert(sample.protoName)
                if let output {
                    try Data(decoded.json.serialized().utf8).write(to: output.appendingPathComponent("\(stem).json"))
                    try Data(decoded.protobuf).write(to: output.appendingPathComponent(file))
                }
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
        #expect(decodedTypes == Set(casesByName.keys), "message types with no Google file: \(Set(casesByName.keys).subtracting(decodedTypes).sorted())")
    }
}
