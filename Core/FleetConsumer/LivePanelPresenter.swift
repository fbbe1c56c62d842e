import FleetCLI
import FleetModel
import Synchronization

/// A live view's lines for a model: `TripPanel`, `ShipmentPanel`. A pure function of the model.
public protocol FollowPanel: Sendable {
    /// What it shows.
    associatedtype Model: FollowedModel
    /// The lines for `model`, none wider than `width` characters (escapes aside); countdowns run from `now`.
    func render(_ model: Model, width: Int, now: Timestamp?) -> [String]
}

/// The live view on a terminal: a panel (`TripPanel`, `ShipmentPanel`) drawn in place and redrawn on
/// every update (and on `refresh()`, so countdowns tick), the cursor hidden meanwhile; on `finish`
/// the last frame stays, the cursor comes back and a closing line says why following ended.
public final class LivePanelPresenter<Panel: FollowPanel>: FollowPresenter {
    public typealias Model = Panel.Model
    /// ANSI: hide the cursor.
    static var hideCursor: String { "\u{1B}[?25l" }
    /// ANSI: show the cursor.
    static var showCursor: String { "\u{1B}[?25h" }
    /// ANSI: clear the whole line.
    static var clearLine: String { "\u{1B}[2K" }

    private struct State {
        var model: Model
        var drawn = false
        var finished = false
    }

    private let output: any TextOutput
    private let panel: Panel
    private let width: @Sendable () -> Int
    private let now: @Sendable () -> Timestamp
    private let state: Mutex<State>

    /// A live panel for `name` on `output`; `width` is read before each frame (the terminal may
    /// be resized), `now` counts ETAs down.
    public init(name: String, output: any TextOutput, panel: Panel,
                width: @escaping @Sendable () -> Int, now: @escaping @Sendable () -> Timestamp) {
        self.output = output
        self.panel = panel
        self.width = width
        self.now = now
        self.state = Mutex(State(model: Model(name: name)))
    }

    /// Hides the cursor and draws the first frame ("waiting for the first update").
    public func start() {
        state.withLock { state in
            output.write(Self.hideCursor)
            draw(&state)
        }
    }

    /// Redraws with the new model.
    public func present(_ update: FollowUpdate<Model>) {
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
            let summary = outcome.summary(noun: Model.noun, name: state.model.name, lastStatus: state.model.statusName)
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
