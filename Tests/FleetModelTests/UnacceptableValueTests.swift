import FleetErrors
import FleetModel
import Testing

/// proto3 JSON decodes `"NaN"`, `"Infinity"` and enum numbers no value has; a server must refuse them,
/// naming the field. These tests damage every field of every message's fully populated sample, one
/// at a time, so a field added to the protos is covered without a list to keep.
struct UnacceptableValueTests {
    @Test(arguments: SampleCase.all)
    func everyNonFiniteNumberIsFoundAtItsPath(sample: SampleCase) throws {
        let json = sample.sampleJSON(0)
        #expect(try sample.audit(json) == nil, "the sample itself is acceptable")
        for (location, value) in JSONEdits.locations(in: json) {
            guard case .number = value else { continue }
            for text in ["NaN", "Infinity", "-Infinity"] {
                let damaged = JSONEdits.replacing(location.steps[...], in: json) { _ in .string(text) }
                let found: UnacceptableValue?
                do {
                    found = try sample.audit(damaged)
                } catch let error as FleetError {
                    // An integer field: refused by decoding, which names the field.
                    #expect(error.code == .invalidArgument)
                    #expect(error.field == location.description, "\(sample.swiftName): \(error.message)")
                    continue
                }
                #expect(found?.path == location.description, "\(sample.swiftName).\(location) = \(text)")
                #expect(found?.message.contains("must be a finite number, got \(text)") == true)
            }
        }
    }

    @Test(arguments: SampleCase.all)
    func everyUnknownEnumNumberIsFoundAtItsPath(sample: SampleCase) throws {
        let json = sample.sampleJSON(0)
        for (location, value) in JSONEdits.locations(in: json) {
            guard case .string = value else { continue }
            let damaged = JSONEdits.replacing(location.steps[...], in: json) { _ in .number(99) }
            guard let found = try? sample.audit(damaged) else { continue }
            // Decoded: an enum (kept as the unknown number 99) or an int64/uint64 (which 99 is).
            let reencoded = try sample.reencode(damaged, DecodingOptions())
            guard case .number(99)? = JSONEdits.value(at: location.steps, in: reencoded) else {
                Issue.record("\(sample.swiftName).\(location): an integer 99 is acceptable there, but was refused: \(found.message)")
                continue
            }
            #expect(found.path == location.description, "\(sample.swiftName).\(location)")
            #expect(found.message.contains("has no value 99"))
        }
    }

    @Test func theMessageNamesTheFieldAndTheKnownValues() throws {
        let vehicle = try Vehicle(jsonString: #"{"vehicleState": 99}"#)
        let found = try #require(vehicle.firstUnacceptableValue(under: "vehicle"))
        #expect(found.path == "vehicle.vehicleState")
        #expect(found.message == "vehicle.vehicleState has no value 99 (maps.fleetengine.v1.VehicleState is one of UNKNOWN_VEHICLE_STATE, OFFLINE, ONLINE)")
        let request = try UpdateVehicleRequest(jsonString: #"{"vehicle": {"lastLocation": {"speed": "NaN"}}}"#)
        #expect(request.firstUnacceptableValue()?.message == "vehicle.lastLocation.speed must be a finite number, got NaN")
        let list = try ListVehiclesRequest(jsonString: #"{"viewport": {"low": {"latitude": 1, "longitude": 2}, "high": {"latitude": "NaN", "longitude": 3}}}"#)
        #expect(list.firstUnacceptableValue()?.path == "viewport.high.latitude")
    }
}
