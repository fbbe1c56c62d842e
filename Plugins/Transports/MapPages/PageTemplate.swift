import FleetErrors
import Foundation
import HTTPServer
import HTTPCore

/// Fills the page skeleton: the panel's real text (status, ETAs, distance: readable before any
/// script runs and by screen readers), the configuration for the script, or the error in words.
enum PageTemplate {
    static func render(title: String, access: MapPageAccess?, configuration: String?, error: FleetError?,
                       leafletScript: String = "leaflet.js", tilesOrigin: String? = nil, tokenOrigin: String? = nil) -> HTTPResponse {
        let panel: String
        let script: String
        switch access {
        case .trip?:
            panel = riderPanel
            script = "rider.js"
        case .tracking?:
            panel = trackingPanel
            script = "tracking.js"
        case .fleet?:
            panel = operatorPanel
            script = "operator.js"
        case nil:
            panel = ""
            script = ""
        }
        var errorHTML = ""
        if let error {
            let cause = error.cause.flatMap(ErrorCatalogue.cause(id:))
                ?? ErrorCause(id: error.code.name, code: error.code, summary: error.code.name, remedy: ErrorCatalogue.entry(for: error.code).description)
            errorHTML = """
            <p class="advice">\(escape(cause.riderAdvice))</p>
            <p class="message">\(escape(error.message))</p>
            <details><summary>What to do (for the app's developers)</summary><p>\(escape(cause.remedy))</p>
            <p><code>\(escape(error.code.name))\(error.cause.map { " · " + escape($0) } ?? "")</code></p></details>
            """
        }
        let scripts = script.isEmpty ? "" : """
        <script id="fleet-map-config" type="application/json">\(jsonInScript(configuration ?? "{}"))</script>
        <script src="/map/leaflet/\(leafletScript)"></script>
        <script src="/map/assets/map-common.js"></script>
        <script src="/map/assets/\(script)"></script>
        """
        let html = PageAssets.pageTemplate
            .replacingOccurrences(of: "{{title}}", with: escape(title))
            .replacingOccurrences(of: "{{kind}}", with: script.isEmpty ? "error-page" : String(script.dropLast(3)))
            .replacingOccurrences(of: "{{panel}}", with: panel)
            .replacingOccurrences(of: "{{error-hidden}}", with: error == nil ? "hidden" : "")
            .replacingOccurrences(of: "{{error}}", with: errorHTML)
            .replacingOccurrences(of: "{{scripts}}", with: scripts)
        // As the REST API answers: a wrong verb is 405 (Google's front end too), an unknown path 404.
        let status = error.map { error in
            switch error.cause {
            case ErrorCause.methodNotAllowed.id?: 405
            case ErrorCause.unknownPath.id?: 404
            default: error.httpStatus
            }
        } ?? 200
        var headers: HTTPHeaders = [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                                    // The page's URL carries its token: never send it on to tile servers.
                                    ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
                                    ("Content-Security-Policy", contentSecurityPolicy(tilesOrigin: tilesOrigin, tokenOrigin: tokenOrigin)),
                                    ("X-Frame-Options", "DENY")]
        if error?.code == .unauthenticated { headers.set(name: "WWW-Authenticate", value: "Bearer") }
        return HTTPResponse(status: status, headers: headers, body: Array(html.utf8))
    }

    static let riderPanel = """
    <h1>Your trip</h1>
    <dl class="facts">
      <div><dt>Status</dt><dd data-field="tripStatus">Connecting…</dd></div>
      <div><dt>Pickup</dt><dd data-field="pickupEta">—</dd></div>
      <div><dt>Drop-off</dt><dd data-field="dropoffEta">—</dd></div>
      <div><dt>Distance left</dt><dd data-field="remainingDistance">—</dd></div>
      <div><dt>Car's location</dt><dd data-field="vehicleAge">—</dd></div>
    </dl>
    <p class="connection" data-field="connection">Connecting…</p>
    """

    static let trackingPanel = """
    <h1>Your delivery</h1>
    <dl class="facts">
      <div><dt>Status</dt><dd data-field="taskState">Connecting…</dd></div>
      <div><dt>Arrives</dt><dd data-field="arrivalEta">—</dd></div>
      <div><dt>Stops before yours</dt><dd data-field="stopsBefore">—</dd></div>
      <div><dt>Distance left</dt><dd data-field="remainingDistance">—</dd></div>
      <div><dt>Van's location</dt><dd data-field="vehicleAge">—</dd></div>
    </dl>
    <p class="connection" data-field="connection">Connecting…</p>
    """

    static let operatorPanel = """
    <h1>Fleet</h1>
    <form id="search" role="search"><label for="search-box">Vehicle or trip ID</label>
      <input id="search-box" name="q" type="search" autocomplete="off" data-field="search"><button type="submit">Find</button></form>
    <p class="counts" data-field="fleetCounts">Connecting…</p>
    <p class="counts" data-field="deliveryCounts" hidden></p>
    <section id="selection" data-field="selection" aria-live="polite"></section>
    <form id="replay" data-field="replay" hidden><h2>Replay</h2>
      <label>Of <select name="subject" data-field="replaySubject"></select></label>
      <label>From <input name="from" type="datetime-local" step="1" data-field="replayFrom"></label>
      <label>To <input name="to" type="datetime-local" step="1" data-field="replayTo"></label>
      <button type="submit">Load</button>
      <div class="player" data-field="replayPlayer" hidden>
        <button type="button" data-field="replayPlay">Play</button>
        <input type="range" min="0" max="0" step="1" value="0" aria-label="Time" data-field="replaySlider">
        <output data-field="replayTime"></output>
      </div>
      <p class="replay-status" data-field="replayStatus" aria-live="polite"></p>
    </form>
    <ul id="vehicles" data-field="vehicleList"></ul>
    <p class="connection" data-field="connection">Connecting…</p>
    """

    /// The pages' Content-Security-Policy: scripts, styles and calls from this server only (no inline
    /// script, no event-handler attributes, no inline style: the page's configuration is a JSON data
    /// block, which is not run), images also from the tile server, calls also to the token server
    /// (`--map-token-url`), no framing (with
    /// `X-Frame-Options: DENY` for older browsers). Should a server value ever reach an HTML sink, the
    /// markup it makes can run nothing.
    static func contentSecurityPolicy(tilesOrigin: String?, tokenOrigin: String? = nil) -> String {
        let images = ["'self'", "data:"] + (tilesOrigin.map { [$0] } ?? [])
        let calls = ["'self'"] + (tokenOrigin.map { [$0] } ?? [])
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src \(images.joined(separator: " ")); "
            + "connect-src \(calls.joined(separator: " ")); base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    /// HTML text escaping.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// JSON safe inside `<script>`: no `</script>` can end it early.
    static func jsonInScript(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
