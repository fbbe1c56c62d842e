import FleetErrors
import FleetModel
import Testing

/// Runs over every generated message with its fully populated samples.
@Suite("Every message's proto3 JSON")
struct MessageJSONTests {
    @Test(arguments: SampleCase.all)
    func fullyPopulatedSamplesRoundTrip(sample: SampleCase) throws {
        for variant in 0..<SampleCase.variantCount {
            #expect(try sample.roundTrips(variant), "variant \(variant)")
        }
    }

    /// Responses and payloads are written as text directly, without the JSON tree: byte for byte what
    /// serializing the tree gives, for every field of every message.
    @Test(arguments: SampleCase.all)
    func textWrittenDirectlyIsTheTreesText(sample: SampleCase) {
        for variant in 0..<SampleCase.variantCount {
            let (direct, viaTree) = sample.bothTexts(variant)
            #expect(direct == viaTree, "variant \(variant): \(String(decoding: direct, as: UTF8.self))")
        }
    }

    /// `enum-encoding=int` writes each enum as its number and nothing else differently: the text reads
    /// back as the sample, and where it differs from the named text, a name became a number. (Which
    /// fields are enums, and that each one is a number, check_models.py checks with Google's
    /// descriptors.)
    @Test(arguments: SampleCase.all)
    func enumsWrittenAsNumbersReadBackTheSame(sample: SampleCase) throws {
        for variant in 0..<SampleCase.variantCount {
            let numbers = try JSON.parse(sample.textWithEnumNumbers(variant))
            #expect(try sample.reencode(numbers, DecodingOptions()) == sample.sampleJSON(variant), "variant \(variant)")
            let changes = Self.differences(try JSON.parse(sample.bothTexts(variant).direct), numbers)
            #expect(changes.allSatisfy { change in
                guard case (.string(let name), .number(let number)) = change else { return false }
                return name.first?.isUppercase == true && number == number.rounded()
            }, "variant \(variant): \(changes)")
        }
    }

    @Test func enumsAreWrittenAsNumbersWhenAsked() throws {
        var task = DeliveryTask(type: .delivery, state: .open)
        task.taskOutcome = DeliveryTask.TaskOutcome(number: 42)
        #expect(String(decoding: task.jsonBytes(options: EncodingOptions(enumsAsNumbers: true)), as: UTF8.self)
                == #"{"type":2,"state":1,"taskOutcome":42}"#)
        #expect(task.jsonString() == #"{"type":"DELIVERY","state":"OPEN","taskOutcome":42}"#)
        // A name this build does not know has no number: it stays a name.
        task.taskOutcome = DeliveryTask.TaskOutcome(name: "FUTURE_OUTCOME")
        #expect(String(decoding: task.jsonBytes(options: EncodingOptions(enumsAsNumbers: true)), as: UTF8.self)
                == #"{"type":2,"state":1,"taskOutcome":"FUTURE_OUTCOME"}"#)
    }

    /// A message's members as text (what a stored record and an answer share) are its JSON without the
    /// braces, with either enum encoding, and nothing for a message with no field set; written into an
    /// object beside other members, they read back as the message.
    @Test func membersTextIsTheMessagesJSONWithoutItsBraces() throws {
        let vehicle = DeliveryVehicle(name: "providers/p/deliveryVehicles/v", lastLocation: DeliveryVehicleLocation(
            location: LatLng(latitude: 48.1, longitude: 11.5), heading: 90), navigationStatus: .enrouteToDestination,
            remainingDistanceMeters: 1200, attributes: [DeliveryVehicleAttribute(key: "depot", value: "north")], type: .twoWheeler)
        for options in [EncodingOptions(), EncodingOptions(enumsAsNumbers: true)] {
            let members = ProtoJSONTextWriter.membersText(vehicle, options: options)
            #expect([UInt8(ascii: "{")] + members + [UInt8(ascii: "}")] == vehicle.jsonBytes(options: options))
            var writer = ProtoJSONTextWriter(options: options)
            writer.writeObject { object in
                object.write("before", "x")
                object.writeMembersText(members)
            }
            guard case .object(var object) = try JSON.parse(writer.bytes) else { Issue.record("not an object"); return }
            #expect(object["before"] == .string("x"))
            object["before"] = nil
            #expect(try DeliveryVehicle(json: .object(object), path: "", options: DecodingOptions()) == vehicle)
        }
        #expect(ProtoJSONTextWriter.membersText(DeliveryVehicle()).isEmpty)
    }

    /// The pairs of values where two JSON documents of the same shape differ.
    static func differences(_ a: JSON, _ b: JSON) -> [(JSON, JSON)] {
        switch (a, b) {
        case (.object(let x), .object(let y)) where x.keys == y.keys:
            return x.members.flatMap { differences($0.value, y[$0.key]!) }
        case (.array(let x), .array(let y)) where x.count == y.count:
            return zip(x, y).flatMap { differences($0, $1) }
        default:
            return a == b ? [] : [(a, b)]
        }
    }

    @Test(arguments: SampleCase.all)
    func samplesSetEveryField(sample: SampleCase) {
        var seen = Set<String>()
        for variant in 0..<SampleCase.variantCount {
            guard case .object(let object) = sample.sampleJSON(variant) else {
                Issue.record("not an object")
                return
            }
            seen.formUnion(object.keys)
            #expect(Set(object.keys).isSubset(of: sample.fieldPaths))
        }
        #expect(seen == sample.fieldPaths)
    }

    @Test(arguments: SampleCase.all)
    func snakeCaseNamesAreAccepted(sample: SampleCase) throws {
        let json = sample.sampleJSON(1)
        let snake = JSONEdits.snakeCased(json)
        #expect(try sample.reencode(snake, DecodingOptions()) == json)
    }

    @Test(arguments: SampleCase.all)
    func unknownFieldsAreRejectedWithTheirPath(sample: SampleCase) throws {
        let json = sample.sampleJSON(2)
        for location in JSONEdits.objects(in: json) {
            let damaged = JSONEdits.replacing(location.steps[...], in: json) { value in
                guard case .object(var object) = value else { return value }
                object["bogusField"] = 1
                return .object(object)
            }
            let error = try #require(throws: FleetError.self, "at '\(location)'") { try sample.reencode(damaged, DecodingOptions()) }
            let place = location.description.isEmpty ? "" : " at '\(location)'"
            #expect(error.message == "Invalid JSON payload received. Unknown name \"bogusField\"\(place): Cannot find field.")
            #expect(error.field == (location.description.isEmpty ? nil : location.description))
            #expect(error.code == .invalidArgument)
            // Ignoring unknown fields decodes the rest unchanged.
            #expect(try sample.reencode(damaged, DecodingOptions(ignoreUnknownFields: true)) == json)
        }
    }

    @Test(arguments: SampleCase.all)
    func wrongTypesAreRejectedNamingTheFullPath(sample: SampleCase) throws {
        let json = sample.sampleJSON(3)
        for (location, value) in JSONEdits.locations(in: json) {
            let damaged = JSONEdits.replacing(location.steps[...], in: json) { _ in JSONEdits.wrongKind(for: value) }
            let error = try #require(throws: FleetError.self, "at '\(location)'") { try sample.reencode(damaged, DecodingOptions()) }
            #expect(error.field == location.description, "got \(error.message)")
            #expect(error.message.contains("'\(location)'"))
            #expect(error.code == .invalidArgument)
        }
    }

    @Test(arguments: SampleCase.all)
    func nullMeansNotSet(sample: SampleCase) throws {
        let json = sample.sampleJSON(4)
        for (location, _) in JSONEdits.locations(in: json) {
            guard case .member(let name)? = location.steps.last, name != "latitude", name != "longitude" else { continue }
            let nulled = JSONEdits.replacing(location.steps[...], in: json) { _ in .null }
            let expected = JSONEdits.replacing(location.steps.dropLast()[...], in: json) { parent in
                guard case .object(var object) = parent else { return parent }
                object[name] = nil
                return .object(object)
            }
            #expect(try sample.reencode(nulled, DecodingOptions()) == expected, "at '\(location)'")
        }
    }

    @Test(arguments: SampleCase.all)
    func aFieldGivenByBothNamesIsRejected(sample: SampleCase) throws {
        guard case .object(let object) = sample.sampleJSON(0),
              let member = object.first(where: { JSONEdits.snakeCase($0.key) != $0.key })
        else { return }
        var doubled = object
        doubled[JSONEdits.snakeCase(member.key)] = member.value
        let error = try #require(throws: FleetError.self) { try sample.reencode(.object(doubled), DecodingOptions()) }
        #expect(error.field == member.key)
        #expect(error.message.contains("given twice"))
    }

    @Test(arguments: SampleCase.all)
    func nonObjectsAreRejected(sample: SampleCase) throws {
        for json: JSON in [[], "x", 1, true] {
            let error = try #require(throws: FleetError.self) { try sample.reencode(json, DecodingOptions()) }
            #expect(error.message.contains("the top level"))
            #expect(error.message.contains("expected a JSON object"))
        }
        #expect(try sample.reencode(.object([:]), DecodingOptions()) == .object([:]))
    }
}
