import FleetTestSupport
import Foundation

/// A real headless Chromium driven over WebDriver: chromedriver is started on a free loopback port
/// and stopped (with the browser) by `quit()` or when released, also when a test fails.
final class Browser: @unchecked Sendable {
    let driver: Process
    let base: String
    let session: String
    private let log: URL

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts chromedriver and one browser session at phone width (412 × 860 CSS pixels).
    init(width: Int = 412, height: Int = 860) throws {
        let port = try Self.freePort()
        log = FileManager.default.temporaryDirectory.appendingPathComponent("chromedriver-\(port).log")
        driver = Process()
        // In a session of its own, so that the browser it starts can be killed with it as a group
        // even when chromedriver is gone or stuck.
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        driver.arguments = [Self.chromedriverPath(), "--port=\(port)", "--log-path=\(log.path)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<100 {
            if let answer = try? Curl.call("GET", base + "/status", timeout: 2), answer.status == 200 { ready = true; break }
            usleep(100_000)
        }
        guard ready else {
            kill(-driver.processIdentifier, SIGKILL)
            throw Failure(description: "chromedriver did not start on port \(port)")
        }
        var arguments = ["--headless=new", "--disable-gpu", "--window-size=\(width),\(height)", "--no-first-run",
                         "--disable-dev-shm-usage", "--disable-extensions", "--lang=en-GB"]
        if getuid() == 0 { arguments.append("--no-sandbox") }  // Chromium refuses to run as root without it.
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": ["args": arguments, "binary": Self.chromiumPath()],
            "goog:loggingPrefs": ["browser": "ALL"],
        ]]]
        let answer = try Curl.call("POST", base + "/session", json: capabilities, timeout: 60)
        guard let value = (answer.json as? [String: Any])?["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            kill(-driver.processIdentifier, SIGKILL)
            driver.waitUntilExit()
            throw Failure(description: "no WebDriver session: \(answer.body)")
        }
        session = id
    }

    deinit { quit() }

    /// Ends the session (closing Chromium) and stops chromedriver.
    func quit() {
        guard driver.isRunning else { return }
        _ = try? Curl.call("DELETE", "\(base)/session/\(session)", timeout: 10)
        // chromedriver ignores SIGTERM: ask it to shut down, then kill it if it has not.
        _ = try? Curl.call("GET", base + "/shutdown", timeout: 5)
        for _ in 0..<50 where driver.isRunning { usleep(100_000) }
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
        kill(-driver.processIdentifier, SIGKILL)  // whatever is left of the browser
    }

    @discardableResult
    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        let answer = try Curl.call(method, "\(base)/session/\(session)\(path)", json: body ?? (method == "POST" ? [:] : nil), timeout: 60)
        let value = (answer.json as? [String: Any])?["value"]
        if answer.status != 200 {
            throw Failure(description: "WebDriver \(method) \(path): \(answer.status) \(answer.body.prefix(600))")
        }
        return value
    }

    func open(_ url: String) throws { try command("POST", "/url", ["url": url]) }

    /// Runs `script` (a function body; `arguments[0]`… are `args`) in the page and returns its value.
    @discardableResult
    func run(_ script: String, _ args: [Any] = []) throws -> Any? {
        try command("POST", "/execute/sync", ["script": script, "args": args])
    }

    /// Clicks the element `css` selects as a person would (WebDriver's element click: the browser's
    /// own pointer events, not a script's `click()`).
    func click(_ css: String) throws {
        guard let element = try command("POST", "/element", ["using": "css selector", "value": css]) as? [String: Any],
              let id = element.values.first as? String else { throw Failure(description: "no element \(css)") }
        try command("POST", "/element/\(id)/click")
    }

    /// Drags with the mouse from a point of the viewport by an offset, in steps, as a person would.
    func drag(from start: (Double, Double), by offset: (Double, Double)) throws {
        var moves: [[String: Any]] = [["type": "pointerMove", "x": Int(start.0), "y": Int(start.1), "duration": 0],
                                      ["type": "pointerDown", "button": 0]]
        for step in 1...5 {
            moves.append(["type": "pointerMove", "duration": 50,
                          "x": Int(start.0 + offset.0 * Double(step) / 5), "y": Int(start.1 + offset.1 * Double(step) / 5)])
        }
        moves.append(["type": "pointerUp", "button": 0])
        try command("POST", "/actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": moves]]])
        try command("DELETE", "/actions")
    }

    /// The text of the element with `data-field="name"`, nil if there is none.
    func text(_ field: String) throws -> String? {
        try run("const e = document.querySelector('[data-field=\"' + arguments[0] + '\"]'); return e ? e.textContent : null;", [field]) as? String
    }

    /// Polls `script` until it returns a truthy value (returned), or fails after `timeout` seconds
    /// with what `describe` says of the page.
    @discardableResult
    func wait(_ what: String, timeout: Double = 20, _ script: String, _ args: [Any] = []) throws -> Any {
        let deadline = Date().addingTimeInterval(timeout)
        var last: Any?
        while Date() < deadline {
            last = try run(script, args)
            if let value = last, !(value is NSNull), (value as? Bool) != false, (value as? String) != "" { return value }
            usleep(100_000)
        }
        let panel = (try? run("return document.body.innerText;") as? String) ?? "?"
        throw Failure(description: "timed out after \(timeout) s waiting for \(what); the page says: \(panel.prefix(800))")
    }

    /// A PNG of the viewport, written to `path`.
    func screenshot(to path: URL) throws {
        guard let base64 = try command("GET", "/screenshot") as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: path)
    }

    /// The browser console's messages since last asked (level and text).
    func consoleLog() throws -> [(level: String, message: String)] {
        let entries = try command("POST", "/se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.map { (($0["level"] as? String) ?? "", ($0["message"] as? String) ?? "") }
    }

    static func chromedriverPath() -> String {
        ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "chromedriver"
    }

    static func chromiumPath() -> String {
        ["/usr/bin/chromium", "/usr/lib/chromium/chromium"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "chromium"
    }

    /// A port nothing listens on now (bound to port 0, read back, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
