import FleetErrors
import FleetInterface
import FleetModel

// Deliveries (Fleet Engine's Last Mile API) on the engine: delivery vehicles, tasks and tracking info.
extension Engine {
    private func notYet(_ method: FleetMethod) -> FleetError {
        FleetError(.methodNotImplemented, detail: "\(method) is not served yet")
    }

    public func createDeliveryVehicle(_ request: CreateDeliveryVehicleRequest, completion: @escaping @Sendable (Result<DeliveryVehicle, any Error>) -> Void) {
        completion(.failure(notYet(.createDeliveryVehicle)))
    }
    public func getDeliveryVehicle(_ request: GetDeliveryVehicleRequest) throws -> DeliveryVehicle { throw notYet(.getDeliveryVehicle) }
    public func deleteDeliveryVehicle(_ request: DeleteDeliveryVehicleRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        completion(.failure(notYet(.deleteDeliveryVehicle)))
    }
    public func updateDeliveryVehicle(_ request: UpdateDeliveryVehicleRequest, completion: @escaping @Sendable (Result<DeliveryVehicle, any Error>) -> Void) {
        completion(.failure(notYet(.updateDeliveryVehicle)))
    }
    public func batchCreateTasks(_ request: BatchCreateTasksRequest, completion: @escaping @Sendable (Result<BatchCreateTasksResponse, any Error>) -> Void) {
        completion(.failure(notYet(.batchCreateTasks)))
    }
    public func createTask(_ request: CreateTaskRequest, completion: @escaping @Sendable (Result<DeliveryTask, any Error>) -> Void) {
        completion(.failure(notYet(.createTask)))
    }
    public func getTask(_ request: GetTaskRequest) throws -> DeliveryTask { throw notYet(.getTask) }
    public func deleteTask(_ request: DeleteTaskRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        completion(.failure(notYet(.deleteTask)))
    }
    public func updateTask(_ request: UpdateTaskRequest, completion: @escaping @Sendable (Result<DeliveryTask, any Error>) -> Void) {
        completion(.failure(notYet(.updateTask)))
    }
    public func listTasks(_ request: ListTasksRequest) throws -> ListTasksResponse { throw notYet(.listTasks) }
    public func getTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest) throws -> TaskTrackingInfo { throw notYet(.getTaskTrackingInfo) }
    public func listDeliveryVehicles(_ request: ListDeliveryVehiclesRequest) throws -> ListDeliveryVehiclesResponse { throw notYet(.listDeliveryVehicles) }
}
