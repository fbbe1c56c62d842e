// consumer-follow: follows a trip or a shipment as the Consumer SDK does and prints its events.
// Thin by design: the declaration below, wiring, and the follower and presenters of FleetConsumer.
import FleetInterface
import FleetCLI
import FleetConcurrency
import FleetConsumer
import FleetErrors
import FleetKit
import FleetCatalogue

let consumerFollow = Command(
    "consumer-follow",
    abstract: "Follow a trip as a rider's app does (its status, the vehicle, the route and both ETAs), or a shipment as the person waiting for it does.",
    discussion: """
        Give the trip's full name (providers/P/trips/T), or its ID with --provider P. Following stops by \
        itself when the trip is COMPLETE or CANCELED (exit 0), when it reaches --until STATUS (exit 0), \
        when --deadline passes first (exit 5), or on Ctrl-C (exit 130; SIGTERM 143).

        --tracking-id ID follows a shipment instead (Fleet Engine Deliveries): its tracking info, watched \
        or polled as a trip is (below), with the events \(ShipmentEventKind.allCases.map(\.rawValue).joined(separator: ", ")); \
        what the task's view config hides (the vehicle, the route, the stop count, the ETA) comes once it \
        is shown. It stops when the task closes with an outcome: SUCCEEDED exits 0, FAILED exits 6.

        Events, one per change, are named after the Consumer SDK's subscriber callbacks: \
        \(TripEventKind.allCases.map(\.rawValue).joined(separator: ", ")). With --json each is one JSON \
        object per line; on a terminal a live panel shows the trip, updated in place; otherwise each is \
        one readable line.

        Server and network errors (ABORTED, CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE) are retried with \
        backoff and reported as error events with recovering: true. Client errors (INVALID_ARGUMENT, \
        NOT_FOUND, PERMISSION_DENIED, RESOURCE_EXHAUSTED, UNAUTHENTICATED, …) are reported with the \
        catalogue's cause and remedy and retried every --interval until stopped; with --fail-fast the \
        first one ends following with exit 10 + its gRPC number (INVALID_ARGUMENT 13, NOT_FOUND 15 for a \
        trip or tracking ID that does not exist, PERMISSION_DENIED 17 for a token scoped to another trip).

        Tokens (http only): --token, --token-file, or --token-url ({trip}, {tracking}, {provider} filled \
        in), asked with GET for the trip's (or shipment's) token \
        and cached until shortly before it expires; a 401 fetches a fresh one once. A token URL that \
        cannot give a token at start ends the run with exit 26 (UNAUTHENTICATED).

        The trip (or shipment) is watched where the transport pushes changes (memory, file; http when the \
        server has the :watch stream: a token that expires while watching is replaced from --token-url and \
        the watch goes on), otherwise polled every --interval with GetTrip, sending the versions of what is \
        already known so that an unchanged route is not sent again (GetTaskTrackingInfo for a shipment). \
        --poll forces polling.
        """,
    version: ProductVersion.of("consumer-follow"),
    options: FollowOptions.options,
    arguments: [FollowOptions.trip],
    examples: [
        Example("consumer-follow providers/my-project/trips/trip-42", "Follow a trip in the live panel until it ends."),
        Example("consumer-follow --provider my-project trip-42 --json | jq -c 'select(.event == \"pickupETA\")'",
                "The pickup ETA each time it changes, as JSON."),
        Example("consumer-follow -p my-project trip-42 --json --events tripStatus --until ARRIVED_AT_PICKUP",
                "Print status changes and stop once the driver is at the pickup."),
        Example("consumer-follow -p my-project trip-42 --store sqlite:/var/lib/fleet/fleet.db --poll --interval 2s",
                "Poll the shared store every two seconds."),
        Example("consumer-follow -p my-project --tracking-id PARCEL-7 --json --events remainingStopCount,estimatedArrivalTime",
                "A shipment's stops before it and its ETA, each time they change, until it is delivered."),
        Example("consumer-follow -p my-project trip-42 --json --deadline 45m || echo \"not over after 45 minutes (exit $?)\"",
                "Give up after 45 minutes (exit 5)."),
    ]
) { arguments, context in
    let settings = try FollowSettings(arguments, context: context)
    let connection = try settings.connection.connect(arguments, options: try settings.connectionOptions(),
                                                     environment: context.environment)
    defer { try? connection.close() }
    switch settings.subject {
    case .trip(let name, _):
        let source: any TripSnapshotSource
        if !settings.poll, let watcher = connection.watcher {
            source = WatchSource(watcher: watcher, fallbackIntervalSeconds: settings.configuration.refreshSeconds)
        } else {
            source = PollingSource(api: connection.api, intervalSeconds: settings.configuration.refreshSeconds)
        }
        let follower = TripFollower(tripName: name, source: source, configuration: settings.configuration)
        return try await present(settings.presenter(settings.tripPanel, context: context), settings: settings,
                             reportsStale: settings.configuration.events.contains(.vehicleStale)) { stop, onUpdate in
            follower.follow(stop: stop, onUpdate: onUpdate)
        }
    case .shipment(let name, let events):
        let follower = ShipmentFollower(trackingName: name, api: connection.api, watcher: settings.poll ? nil : connection.taskWatcher,
                                        events: events, configuration: settings.configuration)
        return try await present(settings.presenter(settings.shipmentPanel, context: context), settings: settings,
                             reportsStale: events.contains(.vehicleStale)) { stop, onUpdate in
            follower.follow(stop: stop, onUpdate: onUpdate)
        }
    }
}

/// Follows on a thread of its own through `follow`, showing every update with the presenter (the
/// clock, not a snapshot, tells when the vehicle went quiet: checked on every update and every
/// second), until following ends or a signal stops it; returns the exit status.
func present<Model: FollowedModel>(_ shown: (presenter: any FollowPresenter<Model>, refresh: (@Sendable () -> Void)?),
                                   settings: FollowSettings, reportsStale: Bool,
                                   follow: @escaping @Sendable (StopSignal, (FollowUpdate<Model>) -> Void) -> FollowOutcome) async throws -> Int32 {
    let presenter = shown.presenter
    let signals = SignalStopper(finish: { presenter.finish($0) })
    let clock = SystemFollowClock()
    let staleness = StaleVehicleWatch<Model>(staleAfterSeconds: settings.staleAfterSeconds,
                                             reportEvents: shown.refresh == nil && reportsStale,
                                             now: { clock.now() }, forward: { presenter.present($0) })
    let ticker = PanelTicker {
        staleness.tick()
        shown.refresh?()
    }

    presenter.start()
    // The blocking follower runs on a thread of its own, so that the command's task can await it.
    let outcome = await WorkerThread.run(name: "consumer-follow") { follow(signals.stop) { staleness.present($0) } }
    ticker.cancel()
    presenter.finish(outcome)
    switch outcome {
    case .failed(let error):
        throw error
    case .stopped:
        return signals.exitCode.rawValue
    case .tripEnded, .untilReached, .shipmentClosed, .deadlinePassed:
        return outcome.exitCode.rawValue
    }
}

ProductCauses.install()
await CommandLineTool.main(consumerFollow)
