import Foundation

/// HTTP calls made with the system's curl: the tests drive the server and chromedriver over the
/// same loopback HTTP a person's tools would use.
enum Curl {
    struct Answer {
        var status: Int
        var body: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func call(_ method: String, _ url: String, json: Any? = nil, headers: [String: String] = [:], timeout: Double = 20,
                     allowTimeout: Bool = false) throws -> Answer {
        var arguments = ["-s", "-S", "--max-time", String(timeout), "-X", method, "-w", "\n%{http_code}"]
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if let json {
            let data = try JSONSerialization.data(withJSONObject: json)
            arguments += ["-H", "Content-Type: application/json", "--data-binary", String(decoding: data, as: UTF8.self)]
        }
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // curl's exit 28: the time ran out (what a test reading a stream for a while wants).
        guard process.terminationStatus == 0 || (allowTimeout && process.terminationStatus == 28) else {
            throw Failure(description: "curl \(method) \(url) failed: \(String(decoding: problem, as: UTF8.self))")
        }
        var text = String(decoding: data, as: UTF8.self)
        guard let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
            throw Failure(description: "curl \(method) \(url): no status in \(text.debugDescription)")
        }
        text = String(text[..<newline])
        return Answer(status: status, body: text)
    }
}
