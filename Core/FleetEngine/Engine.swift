import Dispatch
import FleetErrors
import FleetInterface
import FleetModel
import FleetRouting
import FleetStore
import Glibc

/// Settings of an engine. The defaults are Fleet Engine's.
public struct EngineConfiguration: Sendable {
    /// SearchVehicles skips vehicles whose last location is older than this when the request sets no
    /// `maximumStaleness` (Fleet Engine: five minutes).
    public var defaultMaximumStaleness: Double = 300
    /// ListVehicles' page size when the request sets none (Fleet Engine: 100).
    public var defaultPageSize: Int = 100
    /// The largest page any list or search returns.
    public var maximumPageSize: Int = 1000
    /// How many times a read-modify-write is retried when another writer got there first.
    public var maximumCommitAttempts: Int = 64
    /// Plans routes on roads for vehicles with trips whose drivers send none (see `Engine+Routing`); nil
    /// plans nothing, and such vehicles get great-circle estimates. A router whose plans are estimates
    /// (`straight`) adds nothing over those and is best left out.
    public var router: (any Router)? = nil
    /// The least time between two plans of one vehicle's route while the waypoints stay the same (a plan
    /// that failed, or a vehicle that strayed from its plan): 10 s, one or two reports of the Driver SDK,
    /// so GPS noise never plans on every update. A change of waypoints plans at once.
    public var minimumReplanSeconds: Double = 10
    /// Keeps every accepted location update in the store's position history (`HistoryPoint`),
    /// committed with the vehicle's update. Off, nothing is kept (`--history-retention 0`).
    public var keepsHistory = true
    /// Times the route ahead with what the fleet learned from its drives (`LearnedTimesStorage`); nil uses the
    /// vehicle's live speed only (`fleet-admin serve --learned-etas off`).
    public var learnedETAs: LearnedETASettings? = LearnedETASettings()
    /// When GetTaskTrackingInfo shows each element to the person waiting for a task whose
    /// `taskTrackingViewConfig` says nothing about it: the "project level default" of Fleet Engine's
    /// documentation. An option left unset here shows the element whenever it is known.
    public var taskTrackingDefaults = TaskTrackingViewConfig()
    /// Where the engine writes what an operator should know and no caller is told: a vehicle route's leg
    /// planned as a straight line because no road serves it (once per change, not per update). Nil writes
    /// nothing; `fleet-admin serve` writes to standard error.
    public var log: (@Sendable (String) -> Void)? = nil

    public init() {}
}

/// The Fleet Engine v1 services, on-demand rides and deliveries (the Last Mile API), over a `Store`.
///
/// Safe to call from any number of threads and processes sharing a store: every change is a
/// read-modify-write committed with the versions it read, retried when another writer won.
/// Every write is written once, as a body for `transact(preparing:completion:)` that commits without
/// waiting; the blocking forms wait for it (`NonBlockingFleetAPI`).
public final class Engine: NonBlockingFleetAPI, TripObserving, VehicleObserving, VehicleJSONUpdating {
    let store: any Store
    let clock: any EngineClock
    let configuration: EngineConfiguration
    let routeCache = RouteCache()
    let deliveryRoutes = DeliveryRouteCache()
    let changes = ChangeNotifier()
    let feeds = WatchFeeds(pollSeconds: Engine.watchPollSeconds)
    let vehicleFeeds = VehicleFeeds(pollSeconds: Engine.watchPollSeconds)
    let records = RecordCache()
    let trackingAnswers = TrackingAnswerCache()
    let searchRoutes = SearchRouteCache()
    let learnedTimes = LearnedTimesCache()
    let liveTraffic = LiveTrafficFeed()
    let routerTimes = RouterTimesCache()

    /// An engine over `store`, reading time from `clock`.
    public init(store: any Store, clock: any EngineClock = SystemClock(), configuration: EngineConfiguration = .init()) {
        self.store = store
        self.clock = clock
        self.configuration = configuration
    }

    // MARK: Reading records

    func vehicleKey(_ name: VehicleName) -> RecordKey {
        RecordKey(.vehicle, provider: name.provider, id: name.vehicleID)
    }

    func tripKey(_ name: TripName) -> RecordKey {
        RecordKey(.trip, provider: name.provider, id: name.tripID)
    }

    func loadVehicle(_ key: RecordKey) throws -> VehicleRecord? {
        try store.get(key).map(records.vehicle)
    }

    func requireVehicle(_ key: RecordKey) throws -> VehicleRecord {
        guard let record = try loadVehicle(key) else {
            throw FleetError(.vehicleNotFound, detail: "providers/\(key.provider)/vehicles/\(key.id)")
        }
        return record
    }

    /// For a read-modify-write: on the first attempt this process's latest copy of the vehicle, if it
    /// has one (no store read: the hot path of location updates), else the store's. A copy another
    /// process made stale fails the commit's version check, and the retry reads the store.
    func requireVehicle(_ key: RecordKey, firstAttempt: Bool) throws -> VehicleRecord {
        if firstAttempt, let latest = records.latestVehicle(key) { return latest }
        return try requireVehicle(key)
    }

    func loadTrip(_ key: RecordKey) throws -> TripRecord? {
        try store.get(key).map(records.trip)
    }

    func requireTrip(_ key: RecordKey) throws -> TripRecord {
        guard let record = try loadTrip(key) else { throw tripNotFound(key) }
        return record
    }

    func tripNotFound(_ key: RecordKey) -> FleetError {
        FleetError(.tripNotFound, detail: "providers/\(key.provider)/trips/\(key.id)")
    }

    func deliveryVehicleKey(_ name: DeliveryVehicleName) -> RecordKey {
        RecordKey(.deliveryVehicle, provider: name.provider, id: name.deliveryVehicleID)
    }

    func taskKey(_ name: TaskName) -> RecordKey {
        RecordKey(.task, provider: name.provider, id: name.taskID)
    }

    func loadDeliveryVehicle(_ key: RecordKey) throws -> DeliveryVehicleRecord? {
        try store.get(key).map(records.deliveryVehicle)
    }

    func requireDeliveryVehicle(_ key: RecordKey) throws -> DeliveryVehicleRecord {
        guard let record = try loadDeliveryVehicle(key) else { throw deliveryVehicleNotFound(key) }
        return record
    }

    /// For a read-modify-write: on the first attempt this process's latest copy of the delivery
    /// vehicle, if it has one (no store read: the hot path of location updates), else the store's.
    func requireDeliveryVehicle(_ key: RecordKey, firstAttempt: Bool) throws -> DeliveryVehicleRecord {
        if firstAttempt, let latest = records.latestDeliveryVehicle(key) { return latest }
        return try requireDeliveryVehicle(key)
    }

    func deliveryVehicleNotFound(_ key: RecordKey, field: String? = nil) -> FleetError {
        FleetError(.deliveryVehicleNotFound, detail: "providers/\(key.provider)/deliveryVehicles/\(key.id)", field: field)
    }

    func loadTask(_ key: RecordKey) throws -> TaskRecord? {
        try store.get(key).map(TaskRecord.init)
    }

    func requireTask(_ key: RecordKey) throws -> TaskRecord {
        guard let record = try loadTask(key) else { throw taskNotFound(key) }
        return record
    }

    func taskNotFound(_ key: RecordKey, field: String? = nil) -> FleetError {
        FleetError(.taskNotFound, detail: "providers/\(key.provider)/tasks/\(key.id)", field: field)
    }

    // MARK: Writing

    /// Runs the retry of a read-modify-write that met a conflict: at once for the first attempts,
    /// then after a short random delay growing with the attempts, so that writers colliding on one
    /// record again and again (another process's, say) stop meeting in step. A retry starts from the
    /// store's commit thread, after the group that conflicted, so it usually wins the next group:
    /// several conflicts in a row are common only when many clients write one record at once (each
    /// group commits one of them). The delay is a timer, never a wait on that thread: a yield or a
    /// sleep there held up every other writer's commit with it (UpdateVehicle over HTTP fell to half
    /// its rate, and to a tenth with 50 clients on ten vehicles).
    static func retry(afterConflict attempt: Int, _ run: @escaping @Sendable () -> Void) {
        guard attempt >= 8 else { return run() }
        let microseconds = Int.random(in: 0...min(2_000, 25 << min(attempt - 8, 10)))
        DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(microseconds), execute: run)
    }

    /// The one write path: runs the body that `prepare` makes after checking the request until its
    /// writes commit without a version conflict. The body must read everything it bases its writes
    /// on afresh, except on its first attempt, which may start from this process's latest copy of a
    /// record. Returns at once and gives the outcome (a request that fails its checks included) to
    /// `completion`, on this thread or on the store's writer thread, which also runs any retry.
    /// Keep `completion` short; it delays the store's next group.
    func transact<Result: Sendable>(preparing prepare: () throws -> TransactionBody<Result>,
                                    completion: @escaping @Sendable (Swift.Result<Result, any Error>) -> Void) {
        do {
            transact(attempt: 0, try prepare(), completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    private func transact<Result: Sendable>(attempt: Int, _ body: @escaping TransactionBody<Result>,
                                            completion: @escaping @Sendable (Swift.Result<Result, any Error>) -> Void) {
        guard attempt < configuration.maximumCommitAttempts else {
            completion(.failure(FleetError(.concurrentModification)))
            return
        }
        let writes: [EngineWrite]
        let result: Result
        do {
            (writes, result) = try body(attempt == 0)
        } catch {
            completion(.failure(error))
            return
        }
        if writes.isEmpty {
            completion(.success(result))
            return
        }
        store.commit(writes.map(\.storeWrite)) { [self] outcome in
            switch outcome {
            case .success(let versions):
                committed(writes, versions: versions)
                completion(.success(result))
            case .failure(is StoreConflict):
                Self.retry(afterConflict: attempt) { [self] in transact(attempt: attempt + 1, body, completion: completion) }
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// After a commit: remembers the records written at their new versions and wakes their watchers.
    private func committed(_ writes: [EngineWrite], versions: [UInt64]) {
        for (write, version) in zip(writes, versions) {
            switch write {
            case .vehicle(var record, _):
                record.version = version
                record.addsHistoryPoint = false
                records.remember(record)
            case .trip(var record):
                record.version = version
                records.remember(record)
            case .deliveryVehicle(var record, _):
                record.version = version
                record.addsHistoryPoint = false
                records.remember(record)
            case .task, .shipment:
                break
            case .delete(let key, _):
                records.forget(key)
                if TrackingAnswerCache.isMadeFrom(key.kind) { trackingAnswers.forgetAll() }
            }
        }
        changes.signal(writes.map(\.key))
    }
}

/// A read-modify-write that may run again, told whether this is its first attempt: the writes to
/// commit and the result to return once they are.
typealias TransactionBody<Result> = @Sendable (_ isFirstAttempt: Bool) throws -> (writes: [EngineWrite], result: Result)

/// A write the engine commits: the store's write, plus the decoded vehicle so it need not be decoded
/// again when next read.
enum EngineWrite: Sendable {
    /// A vehicle, with the JSON text of `record.vehicle` when it has been written already.
    case vehicle(VehicleRecord, vehicleJSON: [UInt8]? = nil)
    case trip(TripRecord)
    /// A delivery vehicle, with the JSON text of its fields but its stops when written already
    /// (``DeliveryVehicleRecord/vehicleFieldsText``).
    case deliveryVehicle(DeliveryVehicleRecord, vehicleFields: [UInt8]? = nil)
    case task(TaskRecord)
    case shipment(ShipmentRecord)
    case delete(RecordKey, expectedVersion: UInt64)

    /// Writes a vehicle back at the version it was read.
    static func save(_ record: VehicleRecord) -> EngineWrite { .vehicle(record) }

    /// Writes a trip back at the version it was read.
    static func save(_ record: TripRecord) -> EngineWrite { .trip(record) }

    /// Writes a delivery vehicle back at the version it was read.
    static func save(_ record: DeliveryVehicleRecord) -> EngineWrite { .deliveryVehicle(record) }

    /// Writes a task back at the version it was read.
    static func save(_ record: TaskRecord) -> EngineWrite { .task(record) }

    /// Writes a tracking ID's tasks back at the version they were read, or deletes the record when
    /// no task is left.
    static func save(_ record: ShipmentRecord) -> EngineWrite {
        record.taskIDs.isEmpty ? .delete(record.key, expectedVersion: record.version) : .shipment(record)
    }

    /// The record written (without encoding it, as `storeWrite` does).
    var key: RecordKey {
        switch self {
        case .vehicle(let record, _): record.key
        case .trip(let record): record.key
        case .deliveryVehicle(let record, _): record.key
        case .task(let record): record.key
        case .shipment(let record): record.key
        case .delete(let key, _): key
        }
    }

    var storeWrite: StoreWrite {
        switch self {
        case .vehicle(let record, let json): .put(record.storeRecord(vehicleJSON: json), expectedVersion: record.version)
        case .trip(let record): .put(record.storeRecord(), expectedVersion: record.version)
        case .deliveryVehicle(let record, let fields): .put(record.storeRecord(vehicleFields: fields), expectedVersion: record.version)
        case .task(let record): .put(record.storeRecord(), expectedVersion: record.version)
        case .shipment(let record): .put(record.storeRecord(), expectedVersion: record.version)
        case .delete(let key, let version): .delete(key, expectedVersion: version)
        }
    }
}
