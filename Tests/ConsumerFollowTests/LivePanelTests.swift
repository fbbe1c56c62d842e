import FleetTestSupport
import Foundation
import Testing

/// The live panel in a real terminal (tmux): drawn in place while the trip moves, and the terminal
/// given back — cursor visible, a closing line, the shell's prompt — after Ctrl-C.
@Suite(.serialized) struct LivePanelTests {
    @Test(.enabled(if: Tmux.isAvailable, "tmux is not installed: `make setup` installs it"))
    func thePanelUpdatesInPlaceAndCtrlCRestoresTheTerminal() throws {
        let trip = try SharedStoreTrip()
        let tmux = try Tmux(width: 100, height: 30)
        let binary = try Products.locate("consumer-follow").path
        #expect(try tmux.waitForScreen { $0.contains { $0.hasPrefix("ready$") } }.matched)
        try tmux.type("\(binary) \(trip.tripName) --transport memory --store \(trip.storeArgument); echo \"exit=$?\"")

        let first = try tmux.waitForScreen { $0.contains("Status    NEW") }
        #expect(first.matched, "\(first.screen)")
        #expect(first.screen.contains("Trip      \(trip.tripName)"))
        #expect(first.screen.contains("Vehicle   not assigned yet"))
        #expect(try tmux.cursorVisible() == false, "the cursor is hidden while the panel is shown")

        try trip.assign()
        try trip.setStatus(.enrouteToPickup)
        try trip.setRoute(from: SharedStoreTrip.start, to: SharedStoreTrip.pickup)
        let routed = try tmux.waitForScreen { $0.contains { $0.hasPrefix("Progress  [>  ") && $0.hasSuffix("km to pickup") } }
        #expect(routed.matched, "\(routed.screen)")
        try trip.move(to: 13.39, after: 60)
        let moving = try tmux.waitForScreen { screen in
            screen.contains { $0.hasPrefix("Vehicle   52.50000, 13.39000") } && screen.contains { $0.hasPrefix("Status    ENROUTE_TO_PICKUP") }
        }
        #expect(moving.matched, "\(moving.screen)")
        let progress = try #require(moving.screen.first { $0.hasPrefix("Progress  [") })
        #expect(progress.contains("=") && progress.hasSuffix("m to pickup"), "\(progress)")
        #expect(moving.screen.contains { $0.hasPrefix("Pickup    ETA ") && $0.contains("  in ") })
        #expect(moving.screen.contains { $0.hasPrefix("Dropoff   ETA ") })
        // Redrawn in place: one panel on the screen, not one per update.
        #expect(moving.screen.filter { $0.hasPrefix("Status ") }.count == 1, "\(moving.screen)")
        #expect(moving.screen.filter { $0.hasPrefix("Trip ") }.count == 1)

        try tmux.press("C-c")
        // The shell prints the exit line, then its prompt: wait for both.
        let ended = try tmux.waitForScreen { screen in
            guard let exitLine = screen.firstIndex(of: "exit=130") else { return false }
            return screen[(exitLine + 1)...].contains { $0.hasPrefix("ready$") }
        }
        #expect(ended.matched, "\(ended.screen)")
        #expect(ended.screen.contains("Stopped following \(trip.tripName) (last status ENROUTE_TO_PICKUP)."))
        #expect(try tmux.cursorVisible(), "the cursor is shown again")
        let exitLine = try #require(ended.screen.firstIndex(of: "exit=130"))
        #expect(ended.screen[(exitLine + 1)...].contains { $0.hasPrefix("ready$") }, "the prompt is back")
        // The last frame stays above the closing line.
        #expect(ended.screen.contains { $0.hasPrefix("Status    ENROUTE_TO_PICKUP") })
    }
}
