import HTTPCore
/// What the server keeps about one request between libmicrohttpd's calls: created when the
/// headers are complete, released exactly once when libmicrohttpd reports the request finished.
///
/// Only the thread serving the request's connection touches it.
final class RequestContext {
    let started = ContinuousClock.now
    let method: String
    let path: String
    let httpVersion: String
    let remoteAddress: String
    /// The header fields, read when the headers arrived.
    var headers = HTTPHeaders()
    /// The body received so far.
    var body: [UInt8] = []
    /// Set once a response (or stream) is queued: later calls for this request do nothing.
    var responded = false
    /// The status queued, 0 until then.
    var status = 0
    /// The body size of the queued response.
    var responseBytes = 0
    /// The answer being waited for, for a deferred reply (its connection is parked meanwhile).
    var deferred: DeferredReply?
    /// The stream being sent, for an event-stream reply.
    var stream: EventStream?

    /// The connection it arrived on, as the registry tracks it.
    let connection: ConnectionRecord?

    init(method: String, path: String, httpVersion: String, remoteAddress: String, connection: ConnectionRecord?) {
        self.method = method
        self.path = path
        self.httpVersion = httpVersion
        self.remoteAddress = remoteAddress
        self.connection = connection
    }
}
