import FleetTestSupport
import Foundation
import Testing

/// The rider's page camera, as journey sharing's: it keeps the car and its next stop in view as the
/// car drives, stops following once the rider zooms or pans, and the "Follow the car" button brings
/// it back.
@Suite(.serialized) struct CameraPageTests {
    /// Whether the map's view holds a point, in the page.
    static func inView(_ point: (Double, Double)) -> String {
        "return FleetMap.leafletMap.getBounds().contains([\(point.0), \(point.1)]);"
    }

    @Test func theCameraFollowsTheCarUntilTheRiderMovesTheMap() throws {
        let fleet = try MapFixture(staleAfter: 60)
        try fleet.createCarAndRide()
        try fleet.report(at: MapFixture.route[0])
        let browser = try Browser()
        defer { browser.quit() }
        try browser.open("\(fleet.server.url)/map/trips/ride-1")
        try browser.wait("the car on the map", "const v = \(RiderPageTests.vehicle); return v && v.dataset.lat === '60.165';")
        #expect(try browser.run("return document.body.dataset.following;") as? String == "true")
        #expect(try browser.run("return document.querySelector('[data-field=\"follow\"]').hidden;") as? Bool == true,
                "no follow button while following")
        #expect(try browser.run(Self.inView(MapFixture.route[0])) as? Bool == true)
        #expect(try browser.run(Self.inView(MapFixture.pickup)) as? Bool == true, "the next stop is in view")

        // The car drives far beyond the view it started with: the camera goes with it.
        let far = (60.2050, 24.9900)
        #expect(try browser.run(Self.inView(far)) as? Bool == false)
        try fleet.report(at: far, heading: 40)
        try browser.wait("the camera to follow the car", Self.inView(far))
        #expect(try browser.run(Self.inView(MapFixture.pickup)) as? Bool == true, "with its next stop")
        try Screenshots.take(browser, "camera-1-following")

        // The rider zooms in with the map's own button: the camera stays where the rider put it.
        try browser.click(".leaflet-control-zoom-in")
        try browser.wait("following to stop", "return document.body.dataset.following === 'false';")
        try browser.wait("the follow button", "return !document.querySelector('[data-field=\"follow\"]').hidden;")
        usleep(600_000)  // the zoom's animation ends
        let view = try browser.run("const c = FleetMap.leafletMap.getCenter(); return [c.lat, c.lng, FleetMap.leafletMap.getZoom()];") as? [Double]
        let further = (60.1500, 24.9000)
        try fleet.report(at: further, heading: 200)
        try browser.wait("the marker to move", "const v = \(RiderPageTests.vehicle); return v && v.dataset.lat === '60.15';")
        usleep(500_000)
        #expect(try browser.run("const c = FleetMap.leafletMap.getCenter(); return [c.lat, c.lng, FleetMap.leafletMap.getZoom()];") as? [Double] == view,
                "the view does not move on its own any more")
        #expect(try browser.run(Self.inView(further)) as? Bool == false)
        try Screenshots.take(browser, "camera-2-rider-zoomed")

        // The follow button brings the car and its next stop back into view, and goes away.
        try browser.click("[data-field=\"follow\"]")
        try browser.wait("the camera back on the car", Self.inView(further))
        #expect(try browser.run(Self.inView(MapFixture.pickup)) as? Bool == true)
        #expect(try browser.run("return document.body.dataset.following;") as? String == "true")
        #expect(try browser.run("return document.querySelector('[data-field=\"follow\"]').hidden;") as? Bool == true)
        try Screenshots.take(browser, "camera-3-following-again")

        // Dragging the map is moving it too.
        let box = try browser.run("const r = document.getElementById('map').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];") as? [Double] ?? [200, 200]
        try browser.drag(from: (box[0], box[1]), by: (80, 60))
        try browser.wait("following to stop after a drag", "return document.body.dataset.following === 'false';")

        let errors = try browser.consoleLog().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        #expect(errors.isEmpty, "console: \(errors)")
    }
}
