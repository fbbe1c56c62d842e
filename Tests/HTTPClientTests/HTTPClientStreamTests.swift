import Dispatch
import FleetErrors
import Foundation
import HTTPClient
import Testing
import HTTPCore
import FleetConcurrency

@Suite("HTTP client event streams")
struct HTTPClientStreamTests {
    /// The outcome of one stream call, gathered on its thread.
    struct StreamRun: Sendable {
        var events: [ServerSentEvent]
        var finish: StreamFinishReason
    }

    static func run(_ client: HTTPClient, _ request: HTTPClientRequest, cancellation: Cancellation? = nil,
                    stopAfter: Int? = nil, onEach: @escaping @Sendable () -> Void = {}) async throws -> StreamRun {
        try await onThread {
            var events: [ServerSentEvent] = []
            let finish = try client.stream(request, cancellation: cancellation) { event in
                events.append(event)
                onEach()
                return events.count == stopAfter ? .stop : .continue
            }
            return StreamRun(events: events, finish: finish)
        }
    }

    @Test("a finite stream delivers every event, parsed, then ends")
    func endToEnd() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let run = try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse"))
        #expect(run.events == ServerSentEventParserTests.expectedFixtureEvents)
        guard case .endOfStream = run.finish else {
            Issue.record("expected endOfStream, got \(run.finish)")
            return
        }
    }

    @Test("the stream asks for text/event-stream unless the request chooses its own Accept")
    func acceptHeader() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let defaulted = try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse/echo-headers"))
        #expect(defaulted.events.map(\.data).contains("Accept: text/event-stream"))
        let chosen = try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse/echo-headers",
                                                                  headers: [("Accept", "text/event-stream; charset=utf-8")]))
        #expect(chosen.events.map(\.data).filter { $0.hasPrefix("Accept:") } == ["Accept: text/event-stream; charset=utf-8"])
    }

    @Test("returning .stop ends the stream at once")
    func stopFromHandler() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let run = try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse/five-then-hold"), stopAfter: 2)
        #expect(run.events.map(\.data) == ["event 1", "event 2"])
        guard case .stoppedByHandler = run.finish else {
            Issue.record("expected stoppedByHandler, got \(run.finish)")
            return
        }
    }

    @Test("cancel() from another thread stops a stream that is waiting for data")
    func cancelFromAnotherThread() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let cancellation = Cancellation()
        let firstEvent = DispatchSemaphore(value: 0)
        Thread {
            firstEvent.wait()
            cancellation.cancel()
        }.start()
        let run = try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse/one-then-hold"),
                                     cancellation: cancellation, onEach: { firstEvent.signal() })
        #expect(run.events.map(\.data) == ["event 1"])
        guard case .cancelled = run.finish else {
            Issue.record("expected cancelled, got \(run.finish)")
            return
        }
    }

    @Test("a non-2xx answer returns the error body and no event")
    func rejected() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let run = try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/not-found"))
        #expect(run.events.isEmpty)
        guard case .rejected(let response) = run.finish else {
            Issue.record("expected rejected, got \(run.finish)")
            return
        }
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.bodyText == TestHTTPServer.notFoundJSON)
    }

    @Test("a server that stops sending is detected and reported UNAVAILABLE")
    func stall() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient(configuration: HTTPClientConfiguration(streamStallTimeout: .seconds(1)))
        let error = await #expect(throws: FleetError.self) {
            try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse/one-then-hold"))
        }
        #expect(error?.code == .unavailable)
        #expect(error?.cause == ErrorCause.serverStalled.id)
    }

    @Test("a stream past its deadline fails DEADLINE_EXCEEDED")
    func deadline() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient(configuration: HTTPClientConfiguration(streamStallTimeout: nil))
        let error = await #expect(throws: FleetError.self) {
            try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse/one-then-hold", timeout: .milliseconds(400)))
        }
        #expect(error?.code == .deadlineExceeded)
    }

    @Test("after a stopped stream the client keeps serving calls")
    func reuseAfterStop() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        _ = try await Self.run(client, HTTPClientRequest(url: server.baseURL + "/sse/five-then-hold"), stopAfter: 1)
        let response = try await onThread { try client.send(HTTPClientRequest(url: server.baseURL + "/fixed")) }
        #expect(response.bodyText == "hello")
    }
}
