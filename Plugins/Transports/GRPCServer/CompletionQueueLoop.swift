import CGRPC
import FleetConcurrency
import FleetErrors
import Foundation
import Synchronization

/// Something the core completes: a requested call with its batches (`CallContext`) or the server's
/// shutdown (`ShutdownNotice`). Passed to the core retained as the operation's tag and released when
/// the completion arrives.
enum CompletionTag {
    /// `object` retained, as the tag of one operation.
    static func retain(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged<AnyObject>.passRetained(object).toOpaque()
    }

    /// Releases a tag whose operation was refused, so will never complete.
    static func release(_ tag: UnsafeMutableRawPointer) {
        Unmanaged<AnyObject>.fromOpaque(tag).release()
    }

    /// Hands a completion to its tag and releases the tag.
    static func complete(_ tag: UnsafeMutableRawPointer, success: Bool) {
        let object = Unmanaged<AnyObject>.fromOpaque(tag).takeRetainedValue()
        if let call = object as? CallContext {
            call.completed(success: success)
        } else if let notice = object as? ShutdownNotice {
            notice.done.signal()
        }
    }
}

/// The server's shutdown notice: signals once every call the core was serving has ended.
final class ShutdownNotice: Sendable {
    let done = FleetConcurrency.Semaphore()
}

/// One serving thread and the completion queue it alone waits on.
final class CompletionQueueLoop: @unchecked Sendable {
    let queue: OpaquePointer
    let server: OpaquePointer
    /// Strong: a call answered after a stop gave up waiting for it still counts itself out here.
    /// (`stop()` drops the loops, which ends the cycle.)
    let owner: GRPCServer
    /// The serving thread, once started.
    private let worker = ServingThread()
    /// The serving thread (`ThreadID.current`), set as it starts: an answer given on it is sent at once.
    private let thread = Atomic<UInt>(0)

    init(server: OpaquePointer, owner: GRPCServer) {
        self.queue = grpc_completion_queue_create_for_next(nil)!
        self.server = server
        self.owner = owner
    }

    /// Whether the caller runs on this loop's serving thread.
    var isCurrentThread: Bool { thread.load(ordering: .relaxed) == ThreadID.current.rawValue }

    /// Asks the core for the next call of `method` on this queue, or of any method not registered
    /// when `method` is nil.
    func requestCall(_ method: RegisteredMethod? = nil) {
        let context = CallContext.make(loop: self, method: method)
        let state = context.state
        let tag = CompletionTag.retain(context)
        let result = if let method {
            grpc_server_request_registered_call(server, method.handle, state.pointer(to: \.call)!, state.pointer(to: \.deadline)!,
                                                state.pointer(to: \.metadata)!, nil, queue, queue, tag)
        } else {
            grpc_server_request_call(server, state.pointer(to: \.call)!, state.pointer(to: \.details)!, state.pointer(to: \.metadata)!,
                                     queue, queue, tag)
        }
        if result != GRPC_CALL_OK { CompletionTag.release(tag) }
    }

    func startThread() {
        worker.start(name: "grpc-serve") { [self] in run() }
    }

    /// Waits until the serving thread has returned (at once when it never started).
    func join() { worker.join() }

    /// Takes completions until the queue is shut down.
    private func run() {
        thread.store(ThreadID.current.rawValue, ordering: .relaxed)
        while true {
            let event = grpc_completion_queue_next(queue, gpr_inf_future(GPR_CLOCK_REALTIME), nil)
            if event.type == GRPC_QUEUE_SHUTDOWN { break }
            guard event.type == GRPC_OP_COMPLETE, let tag = event.tag else { continue }
            CompletionTag.complete(tag, success: event.success != 0)
        }
        thread.store(0, ordering: .relaxed)
    }

    /// Empties a queue that was shut down before its thread started.
    func drainAfterShutdown() {
        while true {
            let event = grpc_completion_queue_next(queue, gpr_inf_future(GPR_CLOCK_REALTIME), nil)
            if event.type == GRPC_QUEUE_SHUTDOWN { return }
            if event.type == GRPC_OP_COMPLETE, let tag = event.tag { CompletionTag.release(tag) }
        }
    }
}

/// One of the server's own threads: named (what top and perf show), a 1 MiB stack, and joined by
/// `stop()`.
final class ServingThread: Sendable {
    private let worker = Locked<WorkerThread?>(nil)

    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        worker.withLock { $0 = WorkerThread.start(name: name, stackSize: 1 << 20, body) }
    }

    /// Waits until the thread has returned (at once when it never started).
    func join() { worker.withLock { $0 }?.join() }
}

/// A method path registered with the core before the start: its calls' path is this string, not
/// copied from the call (and their `:authority` is not copied either).
final class RegisteredMethod: @unchecked Sendable {
    let path: String
    /// The core's handle (`grpc_server_register_method`), valid as long as the server.
    let handle: UnsafeMutableRawPointer

    init(path: String, handle: UnsafeMutableRawPointer) {
        self.path = path
        self.handle = handle
    }
}

/// Sends the answers given off the serving threads. Starting a call's batch makes the core write
/// the answer on the thread that starts it; a store's writer completing a group commit of 64 calls
/// would spend that (the encoding, the core's framing, a `sendmsg` per call) before its next commit.
/// It hands the answers over here instead, one wake-up for a whole group, and goes on committing.
final class AnswerThread: @unchecked Sendable {
    typealias Produce = @Sendable () -> Result<[UInt8], GRPCStatus>

    /// The answers queued, and whether the queue is closed.
    private struct Queue {
        var pending: [(call: CallContext, produce: Produce)] = []
        var closed = false
    }

    private let queue = WaitableState(Queue())
    private let worker = ServingThread()

    func start() {
        worker.start(name: "grpc-answer") { [self] in run() }
    }

    /// Waits until the thread has returned (after `close()`).
    func join() { worker.join() }

    /// Queues an answer; false once closed (the caller then sends it itself).
    func put(_ call: CallContext, _ produce: @escaping Produce) -> Bool {
        let isFirst: Bool? = queue.withLock { queue in
            guard !queue.closed else { return nil }
            queue.pending.append((call, produce))
            return queue.pending.count == 1
        }
        guard let isFirst else { return false }
        // A thread sending the answers before has them all when it next takes the lock.
        if isFirst { queue.wakeWaiters() }
        return true
    }

    /// Ends the thread once what is queued has been sent.
    func close() {
        queue.update { $0.closed = true }
    }

    private func run() {
        var taken: [(call: CallContext, produce: Produce)] = []
        while true {
            let isDone = queue.wait(until: { !$0.pending.isEmpty || $0.closed }) { queue, _ in
                if queue.pending.isEmpty { return true }
                swap(&taken, &queue.pending)
                return false
            }
            if isDone { return }
            for answer in taken { answer.call.send(answer.produce()) }
            taken.removeAll(keepingCapacity: true)
        }
    }
}

/// A call's context handed to other threads (in a request, a responder, an answer queued). The
/// context guards what they touch (its answer is claimed once, atomically), but a `ManagedBuffer`
/// subclass cannot declare itself Sendable.
struct CallReference: @unchecked Sendable {
    let context: CallContext
}

/// One call from request to its last batch, in one allocation: the Swift fields in the header, and
/// everything the core holds a pointer to (`CGRPC_call_state`: the call, its details or deadline,
/// metadata, the messages, the ops, the cancelled flag) inline after it, where it stays until the
/// context is released after the last batch completes. (Separately allocated, they made eight
/// allocations a call.)
final class CallContext: ManagedBuffer<CallContext.Header, CGRPC_call_state> {
    enum Stage { case requested, receiving, answered }

    struct Header {
        let loop: CompletionQueueLoop
        /// The registered method this call was requested for; nil for a call of any other method.
        let method: RegisteredMethod?
        var stage = Stage.requested
        /// Whether this call counts in the server's calls in flight.
        var counted = false
        /// The peer whose connection this call counts against (`ConnectionCalls`), once admitted.
        var connection: String?
    }

    static func make(loop: CompletionQueueLoop, method: RegisteredMethod?) -> CallContext {
        let context = unsafeDowncast(create(minimumCapacity: 1) { _ in Header(loop: loop, method: method) }, to: CallContext.self)
        let state = context.state
        state.initialize(to: CGRPC_call_state())
        grpc_call_details_init(state.pointer(to: \.details)!)
        grpc_metadata_array_init(state.pointer(to: \.metadata)!)
        return context
    }

    /// The core's side of the call; its address is fixed for the context's life.
    var state: UnsafeMutablePointer<CGRPC_call_state> { withUnsafeMutablePointerToElements { $0 } }

    deinit {
        let state = self.state
        if let call = state.pointee.call { grpc_call_unref(call) }
        grpc_call_details_destroy(state.pointer(to: \.details)!)
        grpc_metadata_array_destroy(state.pointer(to: \.metadata)!)
        if let buffer = state.pointee.received { grpc_byte_buffer_destroy(buffer) }
        if let buffer = state.pointee.response { grpc_byte_buffer_destroy(buffer) }
        if state.pointee.has_trailer != 0 {
            grpc_slice_unref(state.pointee.trailer.key)
            grpc_slice_unref(state.pointee.trailer.value)
        }
        state.deinitialize(count: 1)
        if let connection = header.connection { header.loop.owner.connectionCalls.release(connection) }
        if header.counted { header.loop.owner.activeCalls.subtract(1, ordering: .releasing) }
    }

    func completed(success: Bool) {
        switch header.stage {
        case .requested:
            // A failed request is the server shutting down: nothing to serve.
            guard success else { return }
            header.counted = true
            let loop = header.loop
            loop.owner.activeCalls.add(1, ordering: .relaxed)
            if !loop.owner.stopping.load(ordering: .relaxed) { loop.requestCall(header.method) }
            guard admit() else { return }
            header.stage = .receiving
            let ops = CGRPC_call_ops(state)!
            ops[0] = grpc_op()
            ops[0].op = GRPC_OP_RECV_MESSAGE
            ops[0].data.recv_message.recv_message = state.pointer(to: \.received)!
            start(batchOf: 1)
        case .receiving:
            // The client went away before sending its message, or sent one over the size limit
            // (the core has answered RESOURCE_EXHAUSTED).
            guard success else { return }
            dispatch()
        case .answered:
            return  // released: the call is unreferenced and stops counting
        }
    }

    /// Counts the call against its connection; past the connection's limit, cancels it at once with
    /// RESOURCE_EXHAUSTED (the core then frees what it held for the stream) and returns false. The
    /// first call past the limit also closes the connection: a client that went past it has not
    /// acknowledged `SETTINGS_MAX_CONCURRENT_STREAMS` (one that has is closed by the core at its
    /// 101st stream), and the core would make a call for every stream it still reads from it.
    private func admit() -> Bool {
        guard let call = state.pointee.call else { return false }
        let peer = peer()
        let owner = header.loop.owner
        let connections = owner.connectionCalls
        let admission = connections.admit(peer)
        guard admission == .admitted else {
            let message = "this connection already has \(connections.limit) calls open, the most one connection may have; "
                + "wait for answers before starting more (the server's SETTINGS_MAX_CONCURRENT_STREAMS is \(connections.maxConcurrentStreams))"
            _ = grpc_call_cancel_with_status(call, GRPC_STATUS_RESOURCE_EXHAUSTED, message, nil)
            if admission == .refusedClosing { owner.closeConnection(of: peer) }
            return false
        }
        header.connection = peer
        return true
    }

    /// Hands the call to the handler, or answers INVALID_ARGUMENT when it carried no message.
    private func dispatch() {
        guard let received = state.pointee.received else {
            respond(.failure(GRPCStatus(code: .invalidArgument, message: "the call carried no request message; a unary call sends exactly one")))
            return
        }
        // The core does not decompress (see `GRPCServer.createServer`): a compressed message is
        // refused as it came, never inflated.
        guard received.pointee.type != GRPC_BB_RAW || received.pointee.data.raw.compression == GRPC_COMPRESS_NONE else {
            respond(.failure(GRPCStatus(code: .unimplemented, message: "compressed messages are not accepted; send them uncompressed (grpc-encoding identity)")))
            return
        }
        let request = if let method = header.method {
            GRPCRequest(method: method.path, of: CallReference(context: self), message: receivedBytes() ?? [])
        } else {
            GRPCRequest(method: Self.string(state.pointer(to: \.details.method)!), host: Self.string(state.pointer(to: \.details.host)!),
                        of: CallReference(context: self), message: receivedBytes() ?? [])
        }
        header.loop.owner.handler(request, GRPCResponder(call: CallReference(context: self)))
    }

    /// Answers the call, once: sent at once on the call's serving thread, else by the answer thread.
    func respond(_ result: Result<[UInt8], GRPCStatus>) {
        guard CGRPC_claim_answer(state) != 0 else { return }
        if header.loop.isCurrentThread || !header.loop.owner.answers.put(self, { result }) { send(result) }
    }

    /// Answers the call with what `produce` makes, once, run where the answer is sent.
    func respond(producing produce: @escaping @Sendable () -> Result<[UInt8], GRPCStatus>) {
        guard CGRPC_claim_answer(state) != 0 else { return }
        if header.loop.isCurrentThread || !header.loop.owner.answers.put(self, produce) { send(produce()) }
    }

    /// Sends the answer: initial metadata, the message (when OK), the status, and waits for the close.
    func send(_ result: Result<[UInt8], GRPCStatus>) {
        let state = self.state
        guard let call = state.pointee.call else { return }
        let ops = CGRPC_call_ops(state)!
        var count = 0
        ops[count] = grpc_op()
        ops[count].op = GRPC_OP_SEND_INITIAL_METADATA
        count += 1
        let status: GRPCStatus
        switch result {
        case .success(let bytes):
            var slice = bytes.withUnsafeBufferPointer { grpc_slice_from_copied_buffer(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count) }
            state.pointee.response = grpc_raw_byte_buffer_create(&slice, 1)
            grpc_slice_unref(slice)
            ops[count] = grpc_op()
            ops[count].op = GRPC_OP_SEND_MESSAGE
            ops[count].data.send_message.send_message = state.pointee.response
            count += 1
            status = GRPCStatus(code: .ok, message: "")
        case .failure(let failure):
            status = failure
        }
        var detailsSlice = status.message.isEmpty ? grpc_empty_slice() : status.message.withCString { grpc_slice_from_copied_string($0) }
        defer { grpc_slice_unref(detailsSlice) }
        ops[count] = grpc_op()
        ops[count].op = GRPC_OP_SEND_STATUS_FROM_SERVER
        ops[count].data.send_status_from_server.status = grpc_status_code(rawValue: status.code.rawValue)
        if let details = status.details, !details.isEmpty {
            state.pointee.trailer = grpc_metadata()
            state.pointee.trailer.key = CGRPC_status_details_key()
            state.pointee.trailer.value = details.withUnsafeBufferPointer {
                grpc_slice_from_copied_buffer(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count)
            }
            state.pointee.has_trailer = 1
            ops[count].data.send_status_from_server.trailing_metadata_count = 1
            ops[count].data.send_status_from_server.trailing_metadata = state.pointer(to: \.trailer)!
        }
        count += 1
        ops[count] = grpc_op()
        ops[count].op = GRPC_OP_RECV_CLOSE_ON_SERVER
        ops[count].data.recv_close_on_server.cancelled = state.pointer(to: \.cancelled)!
        count += 1
        header.stage = .answered
        withUnsafeMutablePointer(to: &detailsSlice) { pointer in
            ops[count - 2].data.send_status_from_server.status_details = status.message.isEmpty ? nil : pointer
            let tag = CompletionTag.retain(self)
            if grpc_call_start_batch(call, ops, count, tag, nil) != GRPC_CALL_OK { CompletionTag.release(tag) }
        }
    }

    private func start(batchOf count: Int) {
        guard let call = state.pointee.call else { return }
        let tag = CompletionTag.retain(self)
        if grpc_call_start_batch(call, CGRPC_call_ops(state), count, tag, nil) != GRPC_CALL_OK { CompletionTag.release(tag) }
    }

    /// The request message's bytes: copied straight from its slice when the core holds it in one
    /// (a small message, as most are), else through the core's reader.
    private func receivedBytes() -> [UInt8]? {
        guard let buffer = state.pointee.received else { return nil }
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
        let array = state.pointee.metadata
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
        let array = state.pointee.metadata
        guard array.count > 0, let items = array.metadata else { return [] }
        return (0..<array.count).map { i in
            (Self.string(items.advanced(by: i).pointer(to: \.key)!), Self.string(items.advanced(by: i).pointer(to: \.value)!))
        }
    }

    /// The peer's address as the core names it: read from the core once, as the call is counted
    /// against its connection.
    func peer() -> String {
        if let connection = header.connection { return connection }
        guard let call = state.pointee.call, let text = grpc_call_get_peer(call) else { return "" }
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
