import FleetTestSupport
import Foundation
import Testing

/// Replay on the operator's page in a real browser: a vehicle's driven path from the history
/// extension over a span, played back with a time slider.
@Suite(.serialized) struct ReplayPageTests {
    static func field(_ name: String) -> String { "document.querySelector('[data-field=\"\(name)\"]')" }

    @Test func aVehiclesDriveIsReplayedWithATimeSlider() throws {
        let fleet = try MapFixture(jwt: true)
        let tokens = try #require(fleet.tokens)
        try fleet.createCarAndRide()
        for point in MapFixture.route.dropFirst() { try fleet.report(at: point) }
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map?token=\(try tokens.mint(role: "fleet-reader"))")
        try browser.wait("car-1 in the list", "return document.querySelector('#vehicles li[data-vehicle-id=\"car-1\"] button') !== null;")
        #expect(try browser.run("return \(Self.field("replay")).hidden;") as? Bool == true)
        try browser.run("document.querySelector('#vehicles li[data-vehicle-id=\"car-1\"] button').click();")
        try browser.wait("the replay form", "return !\(Self.field("replay")).hidden;")
        let subjects = try browser.run("return Array.from(\(Self.field("replaySubject")).options).map(o => o.value).join(',');") as? String
        #expect(subjects == "vehicles/car-1,trips/ride-1")

        // The default span (the last hour) holds the five fixes.
        try browser.run("\(Self.field("replay")).querySelector('button[type=\"submit\"]').click();")
        try browser.wait("the path", "return \(Self.field("replayStatus")).dataset.count === '5';")
        #expect(try browser.run("return \(Self.field("replaySlider")).max;") as? String == "4")
        #expect(try browser.run("return \(Self.field("replayTime")).dataset.lat;") as? String == "60.165")
        try browser.run("const s = \(Self.field("replaySlider")); s.value = '2'; s.dispatchEvent(new Event('input'));")
        #expect(try browser.run("return \(Self.field("replayTime")).dataset.lat + ',' + \(Self.field("replayTime")).dataset.lng;") as? String == "60.17,24.942")
        try Screenshots.take(browser, "operator-4-replay")
        try browser.run("\(Self.field("replayPlay")).click();")
        try browser.wait("the end of the drive", "return \(Self.field("replayTime")).dataset.index === '4';")
        #expect(try browser.run("return \(Self.field("replayTime")).dataset.lat;") as? String == "60.175")

        // The trip's path: the fixes reported while the car served ride-1 (all but its creation's).
        try browser.run("\(Self.field("replaySubject")).value = 'trips/ride-1'; \(Self.field("replay")).querySelector('button[type=\"submit\"]').click();")
        try browser.wait("the trip's path", "return \(Self.field("replayStatus")).dataset.count === '5';")
        // A span that ends before it starts is refused on the page.
        try browser.run("\(Self.field("replayTo")).value = '2000-01-01T00:00:00'; \(Self.field("replay")).querySelector('button[type=\"submit\"]').click();")
        try browser.wait("the refusal", "return /end is after its start/.test(\(Self.field("replayStatus")).textContent);")
        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" }
        #expect(errors.isEmpty, "console: \(errors)")
    }
}
