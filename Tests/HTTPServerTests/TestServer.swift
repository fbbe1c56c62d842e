import Dispatch
import HTTPServer
import Synchronization

/// A server started on 127.0.0.1 with an ephemeral port for one test, recording its access log.
final class TestServer: Sendable {
    let server: HTTPServer
    let port: Int
    private let log: Box<[HTTPAccessLogEntry]>
    private let logged: DispatchSemaphore

    init(configure: (inout HTTPServer.Configuration) -> Void = { _ in },
         handler: @escaping @Sendable (HTTPRequest) -> HTTPReply) throws {
        let log = Box<[HTTPAccessLogEntry]>([])
        let logged = DispatchSemaphore(value: 0)
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadPoolSize: 2)
        configuration.accessLog = { entry in
            log.update { $0.append(entry) }
            logged.signal()
        }
        configuration.diagnostics = { _ in }
        configure(&configuration)
        server = HTTPServer(configuration: configuration, handler: handler)
        port = try server.start().port
        self.log = log
        self.logged = logged
    }

    deinit { server.stop(gracePeriod: .zero) }

    func connect() throws -> RawHTTPConnection { try RawHTTPConnection(port: port) }

    /// The access log so far.
    var accessLog: [HTTPAccessLogEntry] { log.value }

    /// Waits until `count` requests in all have been logged (at most 20 s); returns the log.
    func waitForAccessLog(count: Int) -> [HTTPAccessLogEntry] {
        while accessLog.count < count {
            if logged.wait(timeout: .now() + 20) == .timedOut { break }
        }
        return accessLog
    }
}

/// A one-shot signal between threads, waited for with a time limit so a broken server fails the test.
final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func fire() { semaphore.signal() }

    /// True when fired within the limit.
    func wait(seconds: Double = 20) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

/// A value set by one thread and read by another.
final class Box<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func update(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}

/// A request rendered as text by the echo handler, for tests to compare.
func echo(_ request: HTTPRequest) -> HTTPReply {
    var text = "\(request.method) \(request.path) \(request.httpVersion)\n"
    for item in request.query { text += "q \(item.name)=\(item.value)\n" }
    text += "body \(String(decoding: request.body, as: UTF8.self))\n"
    return .response(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain"), ("X-Echo", "yes")],
                                  body: Array(text.utf8)))
}

/// A weak reference that can be kept in a `Box`, to see whether something was freed.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}
