import Foundation
import HTTPServer
import Testing

@Suite("Deferred replies")
struct DeferredReplyTests {
    /// A server whose `/later` requests are answered by the test, from its own thread, through the
    /// replies handed over in `waiting`; other paths are echoed at once.
    private func deferringServer(waiting: Box<[DeferredReply]>, arrived: Signal,
                                 threads: Int = 2) throws -> TestServer {
        try TestServer(configure: { $0.threadPoolSize = threads }) { request in
            guard request.path.hasPrefix("/later") else { return echo(request) }
            let reply = DeferredReply()
            if request.path == "/later/now" {
                // Completed before the handler returns: the connection need not be parked at all.
                reply.complete { .text("at once") }
            } else {
                waiting.update { $0.append(reply) }
                arrived.fire()
            }
            return .deferred(reply)
        }
    }

    @Test func theConnectionWaitsWhileTheThreadServesOthersAndTheAnswerGoesOutWhenGiven() throws {
        let waiting = Box<[DeferredReply]>([]), arrived = Signal()
        // One server thread: if the parked request held it, the second connection would go unanswered.
        let server = try deferringServer(waiting: waiting, arrived: arrived, threads: 1)
        let parked = try server.connect()
        try parked.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(arrived.wait())

        let other = try server.connect()
        try other.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
        let echoed = try other.readResponse()
        #expect(echoed.status == 200)
        #expect(echoed.text.hasPrefix("GET /other"))

        let reply = try #require(waiting.value.first)
        Thread.detachNewThread {
            reply.complete { HTTPResponse(status: 201, headers: [("Content-Type", "text/plain")], body: Array("done".utf8)) }
        }
        let response = try parked.readResponse()
        #expect(response.status == 201)
        #expect(response.text == "done")
        // The keep-alive connection serves the next request as usual.
        try parked.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try parked.readResponse().text.hasPrefix("GET /again"))
        let entries = server.waitForAccessLog(count: 3)
        #expect(entries.contains { $0.path == "/later" && $0.status == 201 && $0.outcome == .completed })
    }

    @Test func anAnswerGivenBeforeTheHandlerReturnsGoesOutAtOnceAndOnlyTheFirstAnswerCounts() throws {
        let waiting = Box<[DeferredReply]>([]), arrived = Signal()
        let server = try deferringServer(waiting: waiting, arrived: arrived)
        let connection = try server.connect()
        try connection.send("GET /later/now HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "at once")

        try connection.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(arrived.wait())
        let reply = try #require(waiting.value.first)
        reply.complete { .text("first") }
        reply.complete { .text("second") }
        #expect(try connection.readResponse().text == "first")
    }

    @Test func manyParkedRequestsAnsweredFromAnotherThreadInAnyOrderEachGetTheirOwnAnswer() throws {
        let waiting = Box<[DeferredReply]>([]), arrived = Signal()
        let server = try deferringServer(waiting: waiting, arrived: arrived)
        let count = 40
        let connections = try (0..<count).map { _ in try server.connect() }
        for (index, connection) in connections.enumerated() {
            try connection.send("GET /later/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        for _ in 0..<count { #expect(arrived.wait()) }
        // Answer in reverse order of arrival, each with the path it was asked for.
        let replies = waiting.value
        let paths = server.accessLog.map(\.path)  // nothing is logged before the answers go out
        #expect(paths.isEmpty)
        Thread.detachNewThread {
            for (position, reply) in replies.enumerated().reversed() {
                reply.complete { .text("answer \(position)") }
            }
        }
        var answers = Set<String>()
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 200)
            answers.insert(response.text)
        }
        #expect(answers == Set((0..<count).map { "answer \($0)" }))
    }

    @Test func aReplyStillAwaitedWhenTheGracePeriodEndsIsAnswered503AndTheServerStops() throws {
        let waiting = Box<[DeferredReply]>([]), arrived = Signal()
        let server = try deferringServer(waiting: waiting, arrived: arrived)
        let connection = try server.connect()
        try connection.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(arrived.wait())
        // libmicrohttpd aborts if stopped with a connection parked: the stop must answer it first.
        server.server.stop(gracePeriod: .milliseconds(200))
        let response = try connection.readResponse()
        #expect(response.status == 503)
        #expect(response.text.contains("stopped before the call finished"))
        // The application's answer, too late, is ignored.
        waiting.value.first?.complete { .text("too late") }
    }
}
