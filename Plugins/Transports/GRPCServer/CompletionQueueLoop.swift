import CGRPC
import FleetErrors
import Foundation
import Synchronization

/// Something the core completes: a requested call, a batch, or the server's shutdown. Passed to
/// the core retained as the operation's tag and released when the completion arrives.
class CompletionTag: @unchecked Sendable {
    func completed(success: Bool) {}
}

/// The server's shutdown notice: signals once every call the core was serving has ended.
final class ShutdownNotice: CompletionTag, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    override func completed(success: Bool) { done.signal() }
}

/// One serving thread and the completion queue it alone waits on.
final class CompletionQueueLoop: @unchecked Sendable {
    let queue: OpaquePointer
    let server: OpaquePointer
    /// Strong: a call answered after a stop gave up waiting for it still counts itself out here.
    /// (`stop()` drops the loops, which ends the cycle.)
    let owner: GRPCServer
    let ended = DispatchSemaphore(value: 0)

    init(server: OpaquePointer, owner: GRPCServer) {
        self.queue = grpc_completion_queue_create_for_next(nil)!
        self.server = server
        self.owner = owner
    }

    /// Asks the core for the next call of `method` on this queue, or of any method not registered
    /// when `method` is nil.
    func requestCall(_ method: RegisteredMethod? = nil) {
        let context = CallContext(loop: self, method: method)
        let tag = Unmanaged.passRetained(context as CompletionTag).toOpaque()
        let result = if let method {
            grpc_server_request_registered_call(server, method.handle, context.call, context.deadline, context.metadata,
                                                context.received, queue, queue, tag)
        } else {
            grpc_server_request_call(server, context.call, context.details, context.metadata, queue, queue, tag)
        }
        if result != GRPC_CALL_OK { Unmanaged<CompletionTag>.fromOpaque(tag).release() }
    }

    func startThread() {
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "grpc-serve"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Takes completions until the queue is shut down.
    private func run() {
        while true {
            let event = grpc_completion_queue_next(queue, gpr_inf_future(GPR_CLOCK_REALTIME), nil)
            if event.type == GRPC_QUEUE_SHUTDOWN { return }
            guard event.type == GRPC_OP_COMPLETE, let tag = event.tag else { continue }
            Unmanaged<CompletionTag>.fromOpaque(tag).takeRetainedValue().completed(success: event.success != 0)
        }
    }

    /// Empties a queue that was shut down before its thread started.
    func drainAfterShutdown() {
        while true {
            let event = grpc_completion_queue_next(queue, gpr_inf_future(GPR_CLOCK_REALTIME), nil)
            if event.type == GRPC_QUEUE_SHUTDOWN { return }
            if event.type == GRPC_OP_COMPLETE, let tag = event.tag { Unmanaged<CompletionTag>.fromOpaque(tag).release() }
        }
    }
}

/// A method path registered with the core before the start: the core reads its calls' request
/// message before handing them over, so such a call takes two completions (the call with its message,
/// then the answer's batch) instead of three, and its path is this string, not read from the call.
final class RegisteredMethod: @unchecked Sendable {
    let path: String
    /// The core's handle (`grpc_server_register_method`), valid as long as the server.
    let handle: UnsafeMutableRawPointer

    init(path: String, handle: UnsafeMutableRawPointer) {
        self.path = path
        self.handle = handle
    }
}

/// One call from request to its last batch. Everything the core holds a pointer to (the call, its
/// details or deadline, metadata, the received message, the ops, the cancelled flag) lives on the
/// heap here until the context is released, after the last batch completes.
final class CallContext: CompletionTag, @unchecked Sendable {
    enum Stage { case requested, receiving, answered }

    let loop: CompletionQueueLoop
    /// The registered method this call was requested for; nil for a call of any other method.
    let method: RegisteredMethod?
    private var stage = Stage.requested
    let call = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: 1)
    /// Method, host and deadline of a call of an unregistered method.
    let details = UnsafeMutablePointer<grpc_call_details>.allocate(capacity: 1)
    /// The deadline of a call of a registered method.
    let deadline = UnsafeMutablePointer<gpr_timespec>.allocate(capacity: 1)
    let metadata = UnsafeMutablePointer<grpc_metadata_array>.allocate(capacity: 1)
    /// The request message: read by the core with the call (registered method) or by our batch.
    let received = UnsafeMutablePointer<UnsafeMutablePointer<grpc_byte_buffer>?>.allocate(capacity: 1)
    private let cancelled = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private let ops = UnsafeMutablePointer<grpc_op>.allocate(capacity: 4)
    private var response: UnsafeMutablePointer<grpc_byte_buffer>?
    /// The status trailer (`grpc-status-details-bin`), kept until the call is released.
    private var trailer: UnsafeMutablePointer<grpc_metadata>?
    /// Whether this call counts in the server's calls in flight.
    private var counted = false
    /// Set by the first answer; a second is ignored.
    private let answered = Atomic<Bool>(false)

    init(loop: CompletionQueueLoop, method: RegisteredMethod?) {
        self.loop = loop
        self.method = method
        call.initialize(to: nil)
        details.initialize(to: grpc_call_details())
        grpc_call_details_init(details)
        deadline.initialize(to: gpr_timespec())
        metadata.initialize(to: grpc_metadata_array())
        grpc_metadata_array_init(metadata)
        received.initialize(to: nil)
        cancelled.initialize(to: 0)
        ops.initialize(repeating: grpc_op(), count: 4)
    }

    deinit {
        if let call = call.pointee { grpc_call_unref(call) }
        grpc_call_details_destroy(details)
        grpc_metadata_array_destroy(metadata)
        if let buffer = received.pointee { grpc_byte_buffer_destroy(buffer) }
        if let response { grpc_byte_buffer_destroy(response) }
        if let trailer {
            grpc_slice_unref(trailer.pointee.key)
            grpc_slice_unref(trailer.pointee.value)
            trailer.deallocate()
        }
        call.deallocate()
        details.deallocate()
        deadline.deallocate()
        metadata.deallocate()
        received.deallocate()
        cancelled.deallocate()
        ops.deallocate()
        if counted { loop.owner.activeCalls.subtract(1, ordering: .releasing) }
    }

    override func completed(success: Bool) {
        switch stage {
        case .requested:
            // A failed request is the server shutting down: nothing to serve.
            guard success else { return }
            counted = true
            loop.owner.activeCalls.add(1, ordering: .relaxed)
            if !loop.owner.stopping.load(ordering: .relaxed) { loop.requestCall(method) }
            // A registered method's message came with the call (a message over the size limit never
            // gets here: the core answers RESOURCE_EXHAUSTED and drops the call).
            guard method == nil else { return dispatch() }
            stage = .receiving
            ops[0] = grpc_op()
            ops[0].op = GRPC_OP_RECV_MESSAGE
            ops[0].data.recv_message.recv_message = received
            start(batchOf: 1)
        case .receiving:
            guard success else { return }  // the client went away before sending its message
            dispatch()
        case .answered:
            return  // released: the call is unreferenced and stops counting
        }
    }

    /// Hands the call to the handler, or answers INVALID_ARGUMENT when it carried no message.
    private func dispatch() {
        guard received.pointee != nil else {
            respond(.failure(GRPCStatus(code: .invalidArgument, message: "the call carried no request message; a unary call sends exactly one")))
            return
        }
        let request = if let method {
            GRPCRequest(method: method.path, of: self, message: receivedBytes() ?? [])
        } else {
            GRPCRequest(method: Self.string(details.pointer(to: \.method)!), host: Self.string(details.pointer(to: \.host)!),
                        of: self, message: receivedBytes() ?? [])
        }
        loop.owner.handler(request, GRPCResponder(context: self))
    }

    /// Sends the answer: initial metadata, the message (when OK), the status, and waits for the close.
    func respond(_ result: Result<[UInt8], GRPCStatus>) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing), let call = call.pointee else { return }
        var count = 0
        ops[count] = grpc_op()
        ops[count].op = GRPC_OP_SEND_INITIAL_METADATA
        count += 1
        let status: GRPCStatus
        switch result {
        case .success(let bytes):
            var slice = bytes.withUnsafeBufferPointer { grpc_slice_from_copied_buffer(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count) }
            response = grpc_raw_byte_buffer_create(&slice, 1)
            grpc_slice_unref(slice)
            ops[count] = grpc_op()
            ops[count].op = GRPC_OP_SEND_MESSAGE
            ops[count].data.send_message.send_message = response
            count += 1
            status = GRPCStatus(code: .ok, message: "")
        case .failure(let failure):
            status = failure
        }
        var detailsSlice = status.message.withCString { grpc_slice_from_copied_string($0) }
        defer { grpc_slice_unref(detailsSlice) }
        ops[count] = grpc_op()
        ops[count].op = GRPC_OP_SEND_STATUS_FROM_SERVER
        ops[count].data.send_status_from_server.status = grpc_status_code(rawValue: status.code.rawValue)
        if let details = status.details, !details.isEmpty {
            let metadata = UnsafeMutablePointer<grpc_metadata>.allocate(capacity: 1)
            metadata.initialize(to: grpc_metadata())
            metadata.pointee.key = grpc_slice_from_static_string("grpc-status-details-bin")
            metadata.pointee.value = details.withUnsafeBufferPointer {
                grpc_slice_from_copied_buffer(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count)
            }
            trailer = metadata
            ops[count].data.send_status_from_server.trailing_metadata_count = 1
            ops[count].data.send_status_from_server.trailing_metadata = metadata
        }
        count += 1
        ops[count] = grpc_op()
        ops[count].op = GRPC_OP_RECV_CLOSE_ON_SERVER
        ops[count].data.recv_close_on_server.cancelled = cancelled
        count += 1
        stage = .answered
        withUnsafeMutablePointer(to: &detailsSlice) { pointer in
            ops[count - 2].data.send_status_from_server.status_details = status.message.isEmpty ? nil : pointer
            let tag = Unmanaged.passRetained(self as CompletionTag).toOpaque()
            if grpc_call_start_batch(call, ops, count, tag, nil) != GRPC_CALL_OK {
                Unmanaged<CompletionTag>.fromOpaque(tag).release()
            }
        }
    }

    private func start(batchOf count: Int) {
        guard let call = call.pointee else { return }
        let tag = Unmanaged.passRetained(self as CompletionTag).toOpaque()
        if grpc_call_start_batch(call, ops, count, tag, nil) != GRPC_CALL_OK {
            Unmanaged<CompletionTag>.fromOpaque(tag).release()
        }
    }

    /// The request message's bytes: copied straight from its slice when the core holds it in one
    /// (a small message, as most are), else through the core's reader.
    private func receivedBytes() -> [UInt8]? {
        guard let buffer = received.pointee else { return nil }
        if buffer.pointee.type == GRPC_BB_RAW, buffer.pointee.data.raw.compression == GRPC_COMPRESS_NONE,
           buffer.pointee.data.raw.slice_buffer.count == 1, let slice = buffer.pointee.data.raw.slice_buffer.slices {
            return Self.bytes(slice)
        }
        var reader = grpc_byte_buffer_reader()
        guard grpc_byte_buffer_reader_init(&reader, buffer) != 0 else { return nil }
        var slice = grpc_byte_buffer_reader_readall(&reader)
        grpc_byte_buffer_reader_destroy(&reader)
        defer { grpc_slice_unref(slice) }
        return Self.bytes(&slice)
    }

    /// The first value of metadata `key` (lowercase), matched on the core's bytes: no string is made
    /// for the keys passed over.
    func metadataValue(_ key: String) -> String? {
        let array = metadata.pointee
        guard array.count > 0, let items = array.metadata else { return nil }
        var key = key
        return key.withUTF8 { wanted -> String? in
            for i in 0..<array.count {
                let item = items.advanced(by: i)
                let name = item.pointer(to: \.key)!
                let length = CGRPC_slice_length(name)
                guard length == wanted.count else { continue }
                if length > 0 {
                    guard let start = CGRPC_slice_start(name), memcmp(start, wanted.baseAddress!, length) == 0 else { continue }
                }
                return Self.string(item.pointer(to: \.value)!)
            }
            return nil
        }
    }

    /// All of the call's metadata as strings.
    func metadataPairs() -> [(key: String, value: String)] {
        let array = metadata.pointee
        guard array.count > 0, let items = array.metadata else { return [] }
        return (0..<array.count).map { i in
            (Self.string(items.advanced(by: i).pointer(to: \.key)!), Self.string(items.advanced(by: i).pointer(to: \.value)!))
        }
    }

    /// The peer's address as the core names it (read when a handler asks: most never do).
    func peer() -> String {
        guard let call = call.pointee, let text = grpc_call_get_peer(call) else { return "" }
        defer { gpr_free(text) }
        return String(cString: text)
    }

    static func bytes(_ slice: UnsafePointer<grpc_slice>) -> [UInt8] {
        let length = CGRPC_slice_length(slice)
        guard length > 0, let start = CGRPC_slice_start(slice) else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: length))
    }

    static func string(_ slice: UnsafePointer<grpc_slice>) -> String {
        let length = CGRPC_slice_length(slice)
        guard length > 0, let start = CGRPC_slice_start(slice) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
    }
}
