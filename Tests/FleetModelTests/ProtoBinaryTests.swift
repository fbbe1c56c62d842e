import FleetErrors
import FleetModel
import Testing

/// Bytes from hex text (`"0a01"`), for payloads written by Google's Python types.
private func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

/// The error decoding `bytes` as `Message` throws; records an issue when it decodes instead.
private func decodingError<Message: ProtoMessage>(_ type: Message.Type, _ bytes: [UInt8],
                                                  sourceLocation: SourceLocation = #_sourceLocation) -> FleetError? {
    do {
        let value = try Message(protobuf: bytes)
        Issue.record("decoded instead of failing: \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as FleetError {
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error.cause == ErrorCause.malformedProtobuf.id, sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("not a FleetError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite("Binary protobuf")
struct ProtoBinaryTests {
    // MARK: Every message

    @Test(arguments: SampleCase.all)
    func everySampleRoundTrips(_ sample: SampleCase) throws {
        for variant in 0..<SampleCase.variantCount {
            #expect(try sample.protobufRoundTrips(variant), "variant \(variant)")
            let decoded = try sample.decodeProtobuf(sample.sampleProtobuf(variant))
            #expect(decoded.json == sample.sampleJSON(variant), "variant \(variant): binary and JSON disagree")
            #expect(decoded.protobuf == sample.sampleProtobuf(variant), "variant \(variant): re-encoding differs")
        }
    }

    // MARK: Bytes written by Google's Python types (google-maps-fleetengine 0.6.1)

    @Test func decodesGooglesVehicle() throws {
        // fe.Vehicle(name=..., vehicle_state=ONLINE, supported_trip_types=[SHARED, EXCLUSIVE], maximum_capacity=4,
        //            back_to_back_enabled=True).serialize()
        let bytes = hex("0a1770726f7669646572732f702f76656869636c65732f763110021a0201023004b80101")
        let vehicle = try Vehicle(protobuf: bytes)
        #expect(vehicle == Vehicle(name: "providers/p/vehicles/v1", vehicleState: .online, supportedTripTypes: [.shared, .exclusive],
                                   maximumCapacity: 4, backToBackEnabled: true))
        #expect(vehicle.protobufBytes() == bytes, "the same fields, in the same order, the same bytes")
    }

    @Test func decodesGooglesUpdateVehicleRequest() throws {
        // A FieldMask in snake_case paths, a nested LatLng.
        let bytes = hex("1a1770726f7669646572732f702f76656869636c65732f763122162a140a1209f6285c8fc2154e4011713d0ad7a3f0384"
                        + "02a270a0d76656869636c655f73746174650a166c6173745f6c6f636174696f6e2e6c6f636174696f6e")
        let request = try UpdateVehicleRequest(protobuf: bytes)
        #expect(request.name == "providers/p/vehicles/v1")
        #expect(request.updateMask == FieldMask(["vehicleState", "lastLocation.location"]))
        #expect(request.vehicle?.lastLocation?.location == LatLng(latitude: 60.17, longitude: 24.94))
        #expect(request.protobufBytes() == bytes)
    }

    @Test func decodesGooglesNegativeWrapper() throws {
        // fe.Trip(remaining_distance_meters={"value": -5}, number_of_passengers=2): a 10-byte negative varint.
        let bytes = hex("5002620b08fbffffffffffffffff01")
        let trip = try Trip(protobuf: bytes)
        #expect(trip.remainingDistanceMeters == -5)
        #expect(trip.numberOfPassengers == 2)
        #expect(trip.protobufBytes() == bytes)
    }

    // MARK: Wire primitives

    @Test func writesVarintsZigZagAndFixed() {
        var writer = ProtoBinaryWriter()
        writer.writeInt32(1, 150)
        writer.writeInt32(2, -1)
        writer.writeSInt32(3, -1)
        writer.writeSInt64(4, 1)
        writer.writeFixed32(5, 0x0403_0201)
        writer.writeSFixed64(6, -2)
        writer.writeUInt64(7, .max)
        writer.writePackedSInt32(8, [0, -1, 1, -2])
        #expect(writer.bytes == [0x08, 0x96, 0x01,
                                 0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
                                 0x18, 0x01,
                                 0x20, 0x02,
                                 0x2D, 0x01, 0x02, 0x03, 0x04,
                                 0x31, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                 0x38, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
                                 0x42, 0x04, 0x00, 0x01, 0x02, 0x03])
        #expect(ProtoBinaryWriter.zigZag(Int32.min) == UInt32.max)
        #expect(ProtoBinaryWriter.zigZag(Int64.max) == UInt64.max - 1)
    }

    @Test func readsWhatItWritesForEveryScalarKind() throws {
        var writer = ProtoBinaryWriter()
        writer.writeSInt32(1, Int32.min)
        writer.writeSInt64(2, Int64.min)
        writer.writeSFixed32(3, -7)
        writer.writeFixed64(4, .max)
        writer.writeUInt32(5, .max)
        writer.writeBytes(6, [0, 255])
        writer.writePackedFixed32(7, [1, .max])
        writer.writePackedDouble(8, [-0.0, .infinity])
        writer.writeFloat(9, -1.5)
        var reader = ProtoBinaryReader(writer.bytes, messageName: "test.Scalars")
        var fixed: [UInt32] = []
        var doubles: [Double] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1: #expect(try reader.readSInt32(field, "a") == Int32.min)
            case 2: #expect(try reader.readSInt64(field, "b") == Int64.min)
            case 3: #expect(try reader.readSFixed32(field, "c") == -7)
            case 4: #expect(try reader.readFixed64(field, "d") == .max)
            case 5: #expect(try reader.readUInt32(field, "e") == .max)
            case 6: #expect(try reader.readBytes(field, "f") == [0, 255])
            case 7: try reader.readRepeatedFixed32(field, "g", into: &fixed)
            case 8: try reader.readRepeatedDouble(field, "h", into: &doubles)
            case 9: #expect(try reader.readFloat(field, "i") == -1.5)
            default: Issue.record("field \(field.number)")
            }
        }
        #expect(fixed == [1, .max])
        #expect(doubles.count == 2 && doubles[0].sign == .minus && doubles[1] == .infinity)
    }

    // MARK: Unknown fields, enums, merging

    @Test func skipsUnknownFieldsOfEveryWireType() throws {
        let vehicle = Vehicle(name: "providers/p/vehicles/v1", vehicleState: .online, maximumCapacity: 4)
        var unknown = ProtoBinaryWriter()
        unknown.writeUInt64(1000, .max)                       // varint
        unknown.writeFixed64(1001, 7)                         // 64-bit
        unknown.writeString(1002, "future")                   // length-delimited
        unknown.writeFixed32(1003, 7)                         // 32-bit
        unknown.writeKey(1004, .startGroup)                   // a group holding a field and a nested group
        unknown.writeInt32(1, 5)
        unknown.writeKey(2, .startGroup)
        unknown.writeString(3, "x")
        unknown.writeKey(2, .endGroup)
        unknown.writeKey(1004, .endGroup)
        let known = vehicle.protobufBytes()
        let bytes = unknown.bytes + known + unknown.bytes
        #expect(try Vehicle(protobuf: bytes) == vehicle)
        // Inside a nested message too.
        var request = ProtoBinaryWriter()
        request.writeLengthDelimited(4) { $0.writeRawBytes(unknown.bytes + known) }    // UpdateVehicleRequest.vehicle
        #expect(try UpdateVehicleRequest(protobuf: request.bytes).vehicle == vehicle)
    }

    @Test func keepsUnknownEnumNumbersAsTheJSONDecoderDoes() throws {
        var writer = ProtoBinaryWriter()
        writer.writeInt32(2, 42)                      // vehicle_state = 42
        writer.writePackedInt32(3, [2, 77])           // supported_trip_types = [EXCLUSIVE, 77]
        let vehicle = try Vehicle(protobuf: writer.bytes)
        #expect(vehicle.vehicleState == VehicleState(number: 42))
        #expect(vehicle.supportedTripTypes == [.exclusive, TripType(number: 77)])
        #expect(vehicle.protobufBytes() == writer.bytes)
        let fromJSON = try Vehicle(jsonString: #"{"vehicleState": 42, "supportedTripTypes": ["EXCLUSIVE", 77]}"#)
        #expect(fromJSON == vehicle)
    }

    @Test func acceptsRepeatedScalarsUnpackedAndMergesMessagesSentTwice() throws {
        var writer = ProtoBinaryWriter()
        writer.writeEnum(3, TripType.shared)           // unpacked elements
        writer.writeEnum(3, TripType.exclusive)
        writer.writeLengthDelimited(5) { $0.writeInt32Value(2, 90) }                    // lastLocation.heading
        writer.writeLengthDelimited(5) { $0.writeMessage(1, LatLng(latitude: 1, longitude: 2)) }  // lastLocation.location
        writer.writeString(1, "first")
        writer.writeString(1, "last")
        let vehicle = try Vehicle(protobuf: writer.bytes)
        #expect(vehicle.supportedTripTypes == [.shared, .exclusive])
        #expect(vehicle.lastLocation?.heading == 90)
        #expect(vehicle.lastLocation?.location == LatLng(latitude: 1, longitude: 2))
        #expect(vehicle.name == "last")
    }

    @Test func oneofTakesTheLastMemberSent() throws {
        var writer = ProtoBinaryWriter()
        writer.writeString(2, "place")        // place_id
        writer.writeString(3, "generated")    // generated_id
        #expect(try TerminalPointId(protobuf: writer.bytes).generatedId == "generated")
        #expect(try TerminalPointId(protobuf: writer.bytes).placeId == nil)
    }

    // MARK: Refusals: INVALID_ARGUMENT naming the field, never a trap

    @Test func refusesATruncatedVarint() {
        let error = decodingError(Vehicle.self, [0x30, 0x80])   // maximum_capacity, varint cut short
        #expect(error?.field == "maximumCapacity")
        #expect(error?.message.contains("truncated varint") == true)
    }

    @Test func refusesAVarintOverTenBytes() {
        let error = decodingError(Vehicle.self, [0x30] + Array(repeating: 0xFF, count: 10) + [0x01])
        #expect(error?.field == "maximumCapacity")
        #expect(error?.message.contains("longer than 10 bytes") == true)
    }

    @Test func refusesALengthPastTheEnd() {
        let error = decodingError(Vehicle.self, [0x0A, 0x05, 0x61, 0x62])   // name: 5 bytes announced, 2 sent
        #expect(error?.field == "name")
        #expect(error?.message.contains("runs past the end") == true)
    }

    @Test func refusesAHugeLengthWithoutOverflow() {
        let error = decodingError(Vehicle.self, [0x0A] + Array(repeating: 0xFF, count: 9) + [0x01])
        #expect(error?.field == "name")
    }

    @Test func refusesTheWrongWireTypeForAKnownField() {
        let error = decodingError(Vehicle.self, [0x08, 0x01])   // name sent as a varint
        #expect(error?.field == "name")
        #expect(error?.message.contains("wire type 0 (varint), expected 2 (length-delimited)") == true)
        let group = decodingError(Vehicle.self, [0x2B, 0x2C])   // last_location sent as a group
        #expect(group?.field == "lastLocation")
    }

    @Test func refusesInvalidUTF8InANestedString() {
        var writer = ProtoBinaryWriter()
        writer.writeString(1, "ok")
        writer.writeLengthDelimited(8) { $0.writeBytes(1, [0x61]) }
        writer.writeLengthDelimited(8) { $0.writeBytes(1, [0x6B, 0xC3]) }    // attributes[1].key: a cut 2-byte sequence
        let error = decodingError(Vehicle.self, writer.bytes)
        #expect(error?.field == "attributes[1].key")
        #expect(error?.message.contains("invalid UTF-8") == true)
    }

    @Test func refusesBadKeys() {
        #expect(decodingError(Vehicle.self, [0x00, 0x01])?.message.contains("field number 0") == true)
        #expect(decodingError(Vehicle.self, [0x0E])?.message.contains("wire type 6") == true)
        #expect(decodingError(Vehicle.self, [0x0F])?.message.contains("wire type 7") == true)
        #expect(decodingError(Vehicle.self, [0x80])?.message.contains("truncated field key") == true)
    }

    @Test func refusesMalformedGroups() {
        // An end-group marker with no group, a group never closed, a group closed by another field's marker.
        #expect(decodingError(Vehicle.self, [0xA4, 0x3E])?.message.contains("outside any group") == true)
        #expect(decodingError(Vehicle.self, [0xA3, 0x3E, 0x08, 0x01])?.message.contains("no end-group marker") == true)
        #expect(decodingError(Vehicle.self, [0xA3, 0x3E, 0xAC, 0x3E])?.message.contains("ended by") == true)
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let depth = ProtoBinaryReader.maximumDepth + 1
        let open = Array(repeating: [UInt8]([0xA3, 0x3E]), count: depth).flatMap { $0 }    // field 1000, start group
        let close = Array(repeating: [UInt8]([0xA4, 0x3E]), count: depth).flatMap { $0 }
        #expect(decodingError(Vehicle.self, open + close)?.message.contains("deeper than 100") == true)
        let shallow = Array(open.dropFirst(2 * 2)) + Array(close.dropFirst(2 * 2))
        #expect((try? Vehicle(protobuf: shallow)) == Vehicle(), "99 nested groups are within the limit")
    }

    @Test func refusesTruncatedFixedValues() {
        #expect(decodingError(LatLng.self, [0x09, 0, 0, 0])?.field == "latitude")
        #expect(decodingError(Viewport.self, [0x0A, 0x03, 0x09, 0, 0])?.field == "low.latitude")
        // A packed double whose second element is cut.
        var writer = ProtoBinaryWriter()
        writer.writeLengthDelimited(1) { $0.writeFixed64Bits(0); $0.writeFixed32Bits(0) }
        var reader = ProtoBinaryReader(writer.bytes, messageName: "test.Doubles")
        var values: [Double] = []
        #expect(throws: FleetError.self) {
            while let field = try reader.nextField() { try reader.readRepeatedDouble(field, "values", into: &values) }
        }
        #expect(values == [0])
    }

    @Test func refusesWellKnownValuesTheJSONDecoderRefuses() {
        var timestamp = ProtoBinaryWriter()
        timestamp.writeLengthDelimited(15) { $0.writeInt64(1, Timestamp.maxSeconds + 1) }   // current_route_segment_version
        #expect(decodingError(Vehicle.self, timestamp.bytes)?.field == "currentRouteSegmentVersion")
        var nanos = ProtoBinaryWriter()
        nanos.writeLengthDelimited(15) { $0.writeInt32(2, -1) }
        #expect(decodingError(Vehicle.self, nanos.bytes)?.field == "currentRouteSegmentVersion")
        var mask = ProtoBinaryWriter()
        mask.writeLengthDelimited(5) { $0.writeString(1, "vehicle_state,name") }
        #expect(decodingError(UpdateVehicleRequest.self, mask.bytes)?.field == "updateMask.paths[0]")
        // Paths whose JSON form is no field path (`___` → ``, `a._1` → `a.1`) would not read back once
        // written; the fuzzer found `___…` accepted, re-encoded as an empty path that then failed to decode.
        for path in ["___", "vehicle_state.__", "a._1"] {
            var odd = ProtoBinaryWriter()
            odd.writeLengthDelimited(5) { $0.writeString(1, path) }
            #expect(decodingError(UpdateVehicleRequest.self, odd.bytes)?.field == "updateMask.paths[0]", "\(path)")
        }
    }

    @Test func namesFieldsUnderTheGivenPath() throws {
        do {
            _ = try Vehicle(protobuf: [0x0A, 0x05], path: "vehicle")
            Issue.record("decoded")
        } catch let error as FleetError {
            #expect(error.field == "vehicle.name")
            #expect(error.message.hasPrefix(ErrorCause.malformedProtobuf.summary))
        }
    }

    // MARK: Never a trap

    @Test func everyTruncationAndByteFlipDecodesOrThrows() throws {
        // Every prefix and every single-bit flip of a full UpdateVehicleRequest, as every request type.
        // A trap would end the test process; a wrong value is caught by decodeAny's re-encoding check.
        let bytes = UpdateVehicleRequest.sample(1).protobufBytes()
        #expect(bytes.count > 500)
        var accepted = 0
        for length in 0..<bytes.count {
            accepted += ProtoBinaryFuzzing.decodeAny(Array(bytes[..<length]))
        }
        for index in stride(from: 0, to: bytes.count, by: 3) {
            for bit in [0, 3, 7] {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                accepted += ProtoBinaryFuzzing.decodeAny(flipped)
            }
        }
        #expect(accepted > 0)
        #expect(ProtoBinaryFuzzing.decodeAny(bytes) >= 1)
    }

    @Test func fuzzingCoversEveryRequestType() {
        let fuzzed = Set(ProtoBinaryFuzzing.requestTypes.map { $0.protoMessageName })
        // Rides' sample names are relative to maps.fleetengine.v1, Deliveries' to maps.fleetengine.
        let requests = Set(SampleCase.all.map(\.protoName).filter { $0.hasSuffix("Request") }.map {
            $0.hasPrefix("delivery.") ? "maps.fleetengine.\($0)" : "maps.fleetengine.v1.\($0)"
        })
        #expect(fuzzed == requests)
    }
}
