import FleetTestSupport
import Foundation
import Testing

/// An implementation of `FleetAPI` that leaves out a form of a write does not compile: `FleetAPI`
/// gives neither half a default, so the missing form cannot fall back on the other half's default
/// and recurse forever. Checked by type-checking an adopter against the built FleetInterface module
/// (swiftc is on PATH wherever the tests run).
@Suite struct APIFormsCompileTests {
    /// A `NonBlockingFleetAPI` writing the reads and the completion forms; `reportBillable` is the
    /// last completion form, left out when empty.
    static func nonBlockingAdopter(reportBillable: String) -> String {
        """
        import FleetInterface
        import FleetModel

        struct Unavailable: Error {}

        final class CompletionOnly: NonBlockingFleetAPI {
            func getVehicle(_ request: GetVehicleRequest) throws -> Vehicle { throw Unavailable() }
            func listVehicles(_ request: ListVehiclesRequest) throws -> ListVehiclesResponse { throw Unavailable() }
            func searchVehicles(_ request: SearchVehiclesRequest) throws -> SearchVehiclesResponse { throw Unavailable() }
            func getTrip(_ request: GetTripRequest) throws -> Trip { throw Unavailable() }
            func searchTrips(_ request: SearchTripsRequest) throws -> SearchTripsResponse { throw Unavailable() }
            func createVehicle(_ request: CreateVehicleRequest, completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void) {}
            func updateVehicle(_ request: UpdateVehicleRequest, completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void) {}
            func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest,
                                         completion: @escaping @Sendable (Result<UpdateVehicleAttributesResponse, any Error>) -> Void) {}
            func deleteVehicle(_ request: DeleteVehicleRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}
            func createTrip(_ request: CreateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void) {}
            func updateTrip(_ request: UpdateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void) {}
            func deleteTrip(_ request: DeleteTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}
            func getDeliveryVehicle(_ request: GetDeliveryVehicleRequest) throws -> DeliveryVehicle { throw Unavailable() }
            func listDeliveryVehicles(_ request: ListDeliveryVehiclesRequest) throws -> ListDeliveryVehiclesResponse { throw Unavailable() }
            func getTask(_ request: GetTaskRequest) throws -> DeliveryTask { throw Unavailable() }
            func listTasks(_ request: ListTasksRequest) throws -> ListTasksResponse { throw Unavailable() }
            func getTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest) throws -> TaskTrackingInfo { throw Unavailable() }
            func createDeliveryVehicle(_ request: CreateDeliveryVehicleRequest, completion: @escaping @Sendable (Result<DeliveryVehicle, any Error>) -> Void) {}
            func deleteDeliveryVehicle(_ request: DeleteDeliveryVehicleRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}
            func updateDeliveryVehicle(_ request: UpdateDeliveryVehicleRequest, completion: @escaping @Sendable (Result<DeliveryVehicle, any Error>) -> Void) {}
            func batchCreateTasks(_ request: BatchCreateTasksRequest, completion: @escaping @Sendable (Result<BatchCreateTasksResponse, any Error>) -> Void) {}
            func createTask(_ request: CreateTaskRequest, completion: @escaping @Sendable (Result<DeliveryTask, any Error>) -> Void) {}
            func deleteTask(_ request: DeleteTaskRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}
            func updateTask(_ request: UpdateTaskRequest, completion: @escaping @Sendable (Result<DeliveryTask, any Error>) -> Void) {}
            \(reportBillable)
        }
        """
    }

    static let reportBillableForm =
        "func reportBillableTrip(_ request: ReportBillableTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}"

    @Test func anAdopterWithEveryCompletionFormCompiles() throws {
        let outcome = try Self.typecheck(Self.nonBlockingAdopter(reportBillable: Self.reportBillableForm))
        #expect(outcome.status == 0, "\(outcome.errors)")
    }

    @Test func aMissingCompletionFormIsACompileError() throws {
        let outcome = try Self.typecheck(Self.nonBlockingAdopter(reportBillable: ""))
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("does not conform to protocol 'FleetAPI'"), "\(outcome.errors)")
        #expect(outcome.errors.contains("reportBillableTrip(_:completion:)"), "the error names the missing form")
    }

    /// Type-checks `source` against the modules `swift build` made; swiftc's exit status and errors.
    static func typecheck(_ source: String) throws -> (status: Int32, errors: String) {
        let modules = try Products.locate("error-explain").deletingLastPathComponent().appendingPathComponent("Modules")
        let folder = try Products.temporaryDirectory("fleet-api-forms")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Adopter.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let errorFile = folder.appendingPathComponent("stderr.txt")
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }
}
