@testable import FleetEngine
import FleetModel
import FleetStore
import MemoryStore
import Testing

/// The text the engine keeps and joins on the Deliveries hot paths (a shipment's tasks decoded once
/// per version, each leg's path as JSON, the vehicle's fields written once per update): the answers
/// and records are the bytes they would be written afresh, and every write, by this engine or by
/// another on the same store, is seen at once.
@Suite struct DeliveryTextTests {
    static let always = TaskTrackingViewConfig.VisibilityOption(visibilityOption: .always(true))
    static let showAll = TaskTrackingViewConfig(routePolylinePointsVisibility: always, estimatedArrivalTimeVisibility: always,
                                                estimatedTaskCompletionTimeVisibility: always, remainingDrivingDistanceVisibility: always,
                                                remainingStopCountVisibility: always, vehicleLocationVisibility: always)
    let stops = [(48.11, 11.52), (48.12, 11.54), (48.13, 11.55)]

    /// GetTaskTrackingInfo's JSON for `trackingID`, checked byte for byte against the answer encoded
    /// afresh, enums by name and by number, and its binary protobuf likewise; the answer itself.
    @discardableResult
    func tracked(_ engine: Engine, _ f: Fixture, _ trackingID: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TaskTrackingInfo {
        let request = GetTaskTrackingInfoRequest(name: f.trackingName(trackingID))
        let info = try engine.getTaskTrackingInfo(request)
        for options in [EncodingOptions(), EncodingOptions(enumsAsNumbers: true)] {
            let json = try engine.getTaskTrackingInfoJSON(request, options: options)
            #expect(String(decoding: json, as: UTF8.self) == String(decoding: info.jsonBytes(options: options), as: UTF8.self),
                    sourceLocation: sourceLocation)
        }
        #expect(try engine.getTaskTrackingInfoProtobuf(request) == info.protobufBytes(), "binary protobuf", sourceLocation: sourceLocation)
        return info
    }

    /// A van at the depot with three stops, one task each ("t0"…"t2", tracked as "P0"…"P2", everything shown).
    func van(_ f: Fixture) throws {
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        for (i, stop) in stops.enumerated() {
            try f.createTask("t\(i)", Fixture.newTask(tracking: "P\(i)", at: stop, view: Self.showAll))
        }
        try f.setStops("dv1", stops.enumerated().map { Fixture.stop($0.element, ["t\($0.offset)"]) })
    }

    @Test func theTrackingJSONIsTheAnswerEncodedAfreshThroughEveryChange() throws {
        let f = Fixture()
        try van(f)
        let first = try tracked(f.engine, f, "P2")
        #expect(first.routePolylinePoints.count >= 4, "the way to the first stop and the legs on to the third")
        #expect(try tracked(f.engine, f, "P0").routePolylinePoints.count == 2)
        // A location report: the route starts where the van is.
        try f.moveDeliveryVehicle("dv1", to: 48.105, 11.51)
        let moved = try tracked(f.engine, f, "P2")
        #expect(moved.routePolylinePoints.first == Fixture.point(48.105, 11.51))
        // New stops: the first served, the last two swapped.
        try f.setStops("dv1", [Fixture.stop(stops[2], ["t2"]), Fixture.stop(stops[1], ["t1"])])
        #expect(try tracked(f.engine, f, "P2").remainingStopCount == 1)
        #expect(try tracked(f.engine, f, "P1").remainingStopCount == 2)
        // Closed: no vehicle, no route.
        #expect(try tracked(f.engine, f, "P0").routePolylinePoints.isEmpty)
        // The route hidden by the task's view config.
        var hidden = Self.showAll
        hidden.routePolylinePointsVisibility = TaskTrackingViewConfig.VisibilityOption(visibilityOption: .never(true))
        try f.updateTask("t1", DeliveryTask(taskTrackingViewConfig: hidden), ["taskTrackingViewConfig"])
        let withoutRoute = try tracked(f.engine, f, "P1")
        #expect(withoutRoute.routePolylinePoints.isEmpty)
        #expect(withoutRoute.vehicleLocation != nil)
    }

    @Test func aShipmentsTasksAreReadAgainAfterEveryWrite() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("waiting", Fixture.newTask(tracking: "PARCEL", view: Self.showAll))
        #expect(try tracked(f.engine, f, "PARCEL").vehicleLocation == nil, "on no vehicle")
        // CreateTask adds a task to the shipment: the one on a vehicle is shown.
        try f.createTask("onboard", Fixture.newTask(tracking: "PARCEL", at: stops[0], view: Self.showAll))
        try f.setStops("dv1", [Fixture.stop(stops[0], ["onboard"])])
        #expect(try tracked(f.engine, f, "PARCEL").remainingStopCount == 1)
        // UpdateTask: the task's new view config is read.
        var hidden = Self.showAll
        hidden.remainingStopCountVisibility = TaskTrackingViewConfig.VisibilityOption(visibilityOption: .never(true))
        try f.updateTask("onboard", DeliveryTask(taskTrackingViewConfig: hidden), ["taskTrackingViewConfig"])
        #expect(try tracked(f.engine, f, "PARCEL").remainingStopCount == nil)
        // DeleteTask takes a task out of the shipment (once off the vehicle, which closes it).
        try f.setStops("dv1", [])
        try f.engine.deleteTask(DeleteTaskRequest(name: f.taskName("onboard")))
        let left = try tracked(f.engine, f, "PARCEL")
        #expect(left.state == .open)
        #expect(left.vehicleLocation == nil, "the waiting task again")
    }

    @Test func anotherEnginesWritesThroughTheStoreAreSeen() throws {
        let store = MemoryStore()
        let f = Fixture(store: store)
        let other = Engine(store: store, clock: f.clock)
        try van(f)
        try tracked(f.engine, f, "P2")
        // The other engine adds a task to the shipment and moves the van.
        try other.createTask(CreateTaskRequest(parent: f.parent, taskId: "late", task: Fixture.newTask(tracking: "P2", at: stops[0], view: Self.showAll)))
        try other.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("dv1"),
                                             lastLocation: DeliveryVehicleLocation(location: Fixture.point(48.107, 11.515)),
                                             remainingVehicleJourneySegments: [Fixture.stop(stops[0], ["t0", "late"]), Fixture.stop(stops[2], ["t2"])]),
            updateMask: FieldMask(["lastLocation", "remainingVehicleJourneySegments"])))
        let seen = try tracked(f.engine, f, "P2")
        #expect(seen.remainingStopCount == 1, "the task on the first stop, added by the other engine, is shown")
        #expect(seen.vehicleLocation?.location == Fixture.point(48.107, 11.515))
        #expect(seen.routePolylinePoints.first == Fixture.point(48.107, 11.515))
        // And the other way round: this engine's next report starts from the other's stops.
        try f.moveDeliveryVehicle("dv1", to: 48.108, 11.516)
        let info = try other.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: f.trackingName("P2")))
        #expect(info.routePolylinePoints.first == Fixture.point(48.108, 11.516))
        #expect(try tracked(f.engine, f, "P2") == info)
    }

    /// GetTaskTrackingInfo's JSON for `trackingID` from `engine`, decoded.
    func answered(_ engine: Engine, _ f: Fixture, _ trackingID: String, options: EncodingOptions = EncodingOptions()) throws -> TaskTrackingInfo {
        let json = try engine.getTaskTrackingInfoJSON(GetTaskTrackingInfoRequest(name: f.trackingName(trackingID)), options: options)
        return try TaskTrackingInfo(json: JSON.parse(json), path: "", options: DecodingOptions())
    }

    @Test func aKeptTrackingAnswerTellsTheTimesOfEachCall() throws {
        let f = Fixture()
        try van(f)
        let first = try tracked(f.engine, f, "P2")
        let arrival = try #require(first.estimatedArrivalTime)
        let completion = try #require(first.estimatedTaskCompletionTime)
        // Nothing written since: the kept answer, with the times of the new moment.
        f.clock.advance(seconds: 90.5)
        let later = try tracked(f.engine, f, "P2")
        #expect(later.estimatedArrivalTime == arrival.adding(seconds: 90.5))
        #expect(later.estimatedTaskCompletionTime == completion.adding(seconds: 90.5))
        #expect(later.routePolylinePoints == first.routePolylinePoints)
        // A closed task shows no times: nothing is left of them in its kept answer.
        try f.setStops("dv1", [])
        let closed = try tracked(f.engine, f, "P2")
        f.clock.advance(seconds: 30)
        #expect(try tracked(f.engine, f, "P2") == closed)
        #expect(closed.estimatedArrivalTime == nil && closed.state == .closed)
    }

    @Test func aKeptTrackingAnswerSeesEachRecordWrittenByAnotherEngine() throws {
        let store = MemoryStore()
        let f = Fixture(store: store)
        let other = Engine(store: store, clock: f.clock)
        try van(f)
        for options in [EncodingOptions(), EncodingOptions(enumsAsNumbers: true)] {
            _ = try answered(f.engine, f, "P2", options: options)
        }
        // The task alone: its attributes.
        try other.updateTask(UpdateTaskRequest(task: DeliveryTask(name: f.taskName("t2"), attributes: [TaskAttribute(key: "gate", taskAttributeValue: .stringValue("B"))]),
                                               updateMask: FieldMask(["attributes"])))
        for options in [EncodingOptions(), EncodingOptions(enumsAsNumbers: true)] {
            #expect(try answered(f.engine, f, "P2", options: options).attributes.map(\.key) == ["gate"])
        }
        try tracked(f.engine, f, "P2")
        // The vehicle alone: a location report, its stops unchanged.
        try other.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("dv1"), lastLocation: DeliveryVehicleLocation(location: Fixture.point(48.104, 11.512))),
            updateMask: FieldMask(["lastLocation"])))
        #expect(try answered(f.engine, f, "P2").vehicleLocation?.location == Fixture.point(48.104, 11.512))
        try tracked(f.engine, f, "P2")
        // The shipment alone: a task added to it, on no vehicle (the one on the van is still shown).
        try other.createTask(CreateTaskRequest(parent: f.parent, taskId: "spare", task: Fixture.newTask(tracking: "P2", view: Self.showAll)))
        try tracked(f.engine, f, "P2")
        // A task of another shipment on the same van, served: one stop fewer before this one.
        try other.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("dv1"),
                                             remainingVehicleJourneySegments: [Fixture.stop(stops[1], ["t1"]), Fixture.stop(stops[2], ["t2"])]),
            updateMask: FieldMask(["remainingVehicleJourneySegments"])))
        #expect(try answered(f.engine, f, "P2").remainingStopCount == 2)
        try tracked(f.engine, f, "P2")
        // The shown task taken off the van (closed): the task and the vehicle change.
        try other.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("dv1"), remainingVehicleJourneySegments: [Fixture.stop(stops[1], ["t1"])]),
            updateMask: FieldMask(["remainingVehicleJourneySegments"])))
        let after = try answered(f.engine, f, "P2")
        #expect(after.remainingStopCount == nil && after.vehicleLocation == nil, "the spare task, on no vehicle, is shown now")
        try tracked(f.engine, f, "P2")
    }

    @Test func aTaskDeletedAndCreatedAgainIsNotAnsweredFromBefore() throws {
        let f = Fixture()
        try f.createTask("solo", Fixture.newTask(tracking: "SOLO", view: Self.showAll, attributes: [TaskAttribute(key: "try", taskAttributeValue: .stringValue("1"))]))
        #expect(try answered(f.engine, f, "SOLO").attributes.first?.stringValue == "1")
        try f.updateTask("solo", DeliveryTask(state: .closed), ["state"])
        try f.engine.deleteTask(DeleteTaskRequest(name: f.taskName("solo")))
        try f.createTask("solo", Fixture.newTask(tracking: "SOLO", view: Self.showAll, attributes: [TaskAttribute(key: "try", taskAttributeValue: .stringValue("2"))]))
        #expect(try answered(f.engine, f, "SOLO").attributes.first?.stringValue == "2")
        try tracked(f.engine, f, "SOLO")
    }

    @Test func keptAnswersAreBoundedByTheirBytes() throws {
        let f = Fixture()
        try van(f)
        let ids = ["P0", "P2"]
        let answers = try ids.map { id in
            TrackingAnswer(try f.engine.readTaskTrackingInfo(GetTaskTrackingInfoRequest(name: f.trackingName(id)), routeAsText: true),
                           encoding: .json(EncodingOptions()))
        }
        let keys = ids.map { TrackingAnswerCache.Key(shipment: RecordKey(.shipment, provider: f.provider, id: $0), encoding: .json(EncodingOptions())) }
        let cache = TrackingAnswerCache(capacityBytes: answers[0].size + answers[1].size - 1)
        cache.remember(answers[0], for: keys[0])
        #expect(cache.answer(for: keys[0]) === answers[0])
        cache.remember(answers[1], for: keys[1])
        #expect(cache.answer(for: keys[0]) == nil, "emptied when the next answer would pass the bytes allowed")
        #expect(cache.answer(for: keys[1]) === answers[1])
    }

    @Test func aLocationReportWritesTheRecordAndAnswerAsWrittenAfresh() throws {
        let store = MemoryStore()
        let f = Fixture(store: store)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot, attributes: [DeliveryVehicleAttribute(key: "depot", value: "north")])
        try f.createDeliveryVehicle("dv2", at: Fixture.depot)
        for van in ["dv1", "dv2"] {
            for (i, stop) in stops.enumerated() { try f.createTask("\(van)-t\(i)", Fixture.newTask(tracking: "Q-\(van)-\(i)", at: stop)) }
            try f.setStops(van, stops.enumerated().map { Fixture.stop($0.element, ["\(van)-t\($0.offset)"]) })
        }
        for (step, lat) in [48.101, 48.102].enumerated() {
            for van in ["dv1", "dv2"] {
                let request = UpdateDeliveryVehicleRequest(
                    deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName(van), lastLocation: DeliveryVehicleLocation(location: Fixture.point(lat, 11.5))),
                    updateMask: FieldMask(["lastLocation"]))
                let json = try WritesWithoutWaitingTests().awaitWrite { f.engine.updateDeliveryVehicleJSON(request, completion: $0) }
                let stored = try #require(try store.get(RecordKey(.deliveryVehicle, provider: f.provider, id: van)))
                let record = try DeliveryVehicleRecord(stored)
                // Written afresh from the decoded record (no text kept): the same bytes.
                #expect(record.storeRecord().payload == stored.payload, "\(van), step \(step)")
                #expect(json == f.engine.deliveryVehicleJSON(record), "\(van), step \(step)")
                let answered = try DeliveryVehicle(json: JSON.parse(json), path: "", options: DecodingOptions())
                #expect(answered.attributes == (try f.deliveryVehicle(van)).attributes, "attributes in both spellings")
                #expect(record.tracking.legPaths.count == 3)
            }
        }
    }

    /// The key of the stops the legs were measured for is the same in every process (engines sharing a
    /// store compare it): 64-bit FNV-1a of the places' text, with "@" when the legs start at the vehicle.
    @Test func theMeasuredStopsKeyIsTheFNVDigestOfThePlaces() {
        let segments = stops.prefix(2).map { Fixture.stop($0, ["t"]) }
        var digest: UInt64 = 14_695_981_039_346_656_037
        for byte in "48.11,11.52;48.12,11.54".utf8 { digest = (digest ^ UInt64(byte)) &* 1_099_511_628_211 }
        #expect(Engine.stopPlacesDigest(segments) == digest)
        #expect(Engine.measuredStopsKey(placesDigest: digest, hasOrigin: true) == "@" + String(digest, radix: 16))
        #expect(Engine.stopPlacesDigest(segments.reversed()) != digest, "the order counts")
        #expect(Engine.stopPlacesDigest([]) != Engine.stopPlacesDigest([Fixture.stop((0, 0), ["t"])]))
    }
}
