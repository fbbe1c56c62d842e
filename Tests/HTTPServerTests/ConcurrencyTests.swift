import Foundation
import HTTPServer
import Testing

@Suite("Many clients at once")
struct ConcurrencyTests {
    @Test func eightThreadsOfKeepAliveRequestsAreAllAnsweredCorrectly() throws {
        let threads = 8, requestsPerThread = 200
        let server = try TestServer { request in
            let body = Array("\(request.path)|\(request.queryValue("n") ?? "")|\(request.body.count)".utf8)
            return .response(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: body))
        }
        let failures = Box<[String]>([])
        let answered = Box(0)
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let connection = try server.connect()
                    for index in 0..<requestsPerThread {
                        let body = String(repeating: "b", count: index % 7)
                        try connection.send("POST /t/\(thread)/\(index)?n=\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                        let response = try connection.readResponse()
                        let expected = "/t/\(thread)/\(index)|\(index)|\(index % 7)"
                        if response.status != 200 || response.text != expected {
                            failures.update { $0.append("thread \(thread) request \(index): \(response.status) \(response.text)") }
                        } else {
                            answered.update { $0 += 1 }
                        }
                    }
                } catch {
                    failures.update { $0.append("thread \(thread): \(error)") }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(failures.value == [])
        #expect(answered.value == threads * requestsPerThread)
        #expect(server.waitForAccessLog(count: threads * requestsPerThread).count == threads * requestsPerThread)
    }
}
