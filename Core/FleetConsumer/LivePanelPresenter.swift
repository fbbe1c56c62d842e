import FleetCLI
import FleetModel
import Synchronization

/// The live view on a terminal: `TripPanel` drawn in place and redrawn on every update (and on
/// `refresh()`, so countdowns tick), the cursor hidden meanwhile; on `finish` the last frame stays,
/// the cursor comes back and a closing line says why following ended.
public final class LivePanelPresenter: FollowPresenter {
    /// ANSI: hide the cursor.
    static let hideCursor = "\u{1B}[?25l"
    /// ANSI: show the cursor.
    static let showCursor = "\u{1B}[?25h"
    /// ANSI: clear the whole line.
    static let clearLine = "\u{1B}[2K"

    private struct State {
        var model: TripModel
        var drawn = false
        var finished = false
    }

    private let output: any TextOutput
    private let panel: TripPanel
    private let width: @Sendable () -> Int
    private let now: @Sendable () -> Timestamp
    private let state: Mutex<State>

    /// A live panel for `tripName` on `output`; `width` is read before each frame (the terminal may
    /// be resized), `now` counts ETAs down.
    public init(tripName: String, output: any TextOutput, panel: TripPanel,
                width: @escaping @Sendable () -> Int, now: @escaping @Sendable () -> Timestamp) {
        self.output = output
        self.panel = panel
        self.width = width
        self.now = now
        self.state = Mutex(State(model: TripModel(tripName: tripName)))
    }

    /// Hides the cursor and draws the first frame ("waiting for the first update").
    public func start() {
        state.withLock { state in
            output.write(Self.hideCursor)
            draw(&state)
        }
    }

    /// Redraws with the new model.
    public func present(_ update: TripUpdate) {
        state.withLock { state in
            guard !state.finished else { return }
            state.model = update.model
            draw(&state)
        }
    }

    /// Redraws without a new model, so that "in 2m 05s" counts down between updates.
    public func refresh() {
        state.withLock { state in
            guard !state.finished else { return }
            draw(&state)
        }
    }

    /// Draws the last frame, shows the cursor, and writes the closing line.
    public func finish(_ outcome: FollowOutcome) {
        state.withLock { state in
            guard !state.finished else { return }
            draw(&state)
            state.finished = true
            let summary = outcome.summary(tripName: state.model.tripName, lastStatus: state.model.status?.name)
            output.write(Self.showCursor + summary + "\n")
        }
    }

    /// Writes the frame over the previous one: back to the panel's first line (after clearing
    /// whatever the terminal echoed below it, such as ^C), then each line cleared and rewritten.
    private func draw(_ state: inout State) {
        let lines = panel.render(state.model, width: width(), now: now())
        var frame = ""
        if state.drawn {
            frame += "\r" + Self.clearLine + "\u{1B}[\(lines.count)F"
        }
        for line in lines {
            frame += Self.clearLine + line + "\n"
        }
        output.write(frame)
        state.drawn = true
    }
}
