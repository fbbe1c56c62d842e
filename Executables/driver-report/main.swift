// driver-report: the Driver SDK's vehicle reporter as a Linux daemon.
// Thin by design: the declaration below; DriverReportSettings reads it, ReportingDaemon wires the
// core (FleetLocation's feeds, FleetDriver's VehicleReporter) to a transport, signals and systemd.
import FleetCLI
import FleetDriver
import FleetErrors
import FleetKit
import FleetCatalogue

let driverReport = Command(
    "driver-report",
    abstract: "Report a vehicle's location to Fleet Engine, as the Driver SDK does, from gpsd, NMEA, GPX, CSV, JSON Lines or a simulated drive; a delivery vehicle's stops too.",
    discussion: """
        Tracking (--source): a rides vehicle (--vehicle) goes ONLINE and an UpdateVehicle with its last \
        location (and, while navigating, its route segment, end point, remaining distance and time) is \
        sent every --interval: 10s by default, clamped to 5s-60s. Only what changed is sent; the trips' \
        waypoints are read, never sent. A failed update never stops tracking: retryable errors back off, \
        the newest location goes next. SIGTERM, SIGINT, --duration or the end of a finite source stop \
        tracking: a final update sets the vehicle OFFLINE, retried until acknowledged or --stop-timeout passes.

        Delivery vehicles (--delivery-vehicle): the same reporting with UpdateDeliveryVehicle (last \
        location, route segment, end point, remaining distance and duration; no state). The vehicle's \
        stops (remainingVehicleJourneySegments) are read, navigated in order, and the next one is \
        marked ENROUTE when the vehicle sets off towards it, ARRIVED within --arrival-radius (50 m), and \
        served after --dwell (or on SIGUSR2): removed from the list, which closes its tasks. Each change \
        is written on a fresh read of the list; stops are never reordered. --stop-updates server leaves \
        the stops to the provider.

        One-shot (--state online|offline): set a rides vehicle's state and exit.

        Sources: gpsd://HOST:PORT, nmea:PATH, nmea:-, gpx:PATH, csv:PATH, jsonl:PATH, jsonl:-, \
        simulate:ROUTE (a route file or polyline:ENCODED), simulate:plan (drive each leg the navigation \
        plans, from the vehicle's last location). Files replay at their recorded pace; --speedup N runs \
        the reporter's clock N times faster, so --interval, --duration, --dwell and the simulated drive \
        are in simulated seconds (--stop-timeout stays in real seconds).

        Logs: one line per event on standard error (--log-format json for machines); SIGUSR1 logs the \
        counters and rewrites --status-file. Under systemd (Type=notify) it sends READY, WATCHDOG, \
        STATUS and STOPPING.

        Exit status: 0 stopped and the final update acknowledged (a rides vehicle OFFLINE; or --state \
        done); 2 usage error; 3 the final update was not acknowledged before --stop-timeout; 4 the \
        location source failed (final update sent); 10 + gRPC number for a fatal start-up error (15 the \
        vehicle does not exist, 26 no token could be obtained).
        """,
    version: ProductVersion.of("driver-report"),
    options: DriverReportOptions.options,
    examples: [
        Example("driver-report --provider acme --vehicle cab-7 --source gpsd://localhost:2947",
                "Track cab-7 from the local gpsd until SIGTERM."),
        Example("driver-report --provider acme --vehicle cab-7 --source simulate:route.gpx --speedup 20 --status-file /tmp/cab-7.json",
                "Drive cab-7 along route.gpx twenty times faster than real time."),
        Example("gpspipe -r | driver-report --provider acme --vehicle cab-7 --source nmea:-",
                "Report NMEA sentences from standard input."),
        Example("driver-report --provider acme --vehicle cab-7 --state offline", "Set cab-7 OFFLINE and exit."),
        Example("driver-report --provider acme --delivery-vehicle van-3 --source simulate:plan --router routino:.build/map --speedup 20",
                "Drive van-3 from stop to stop on roads, marking each ENROUTE, ARRIVED and served."),
    ]
) { arguments, context in
    let settings = try DriverReportSettings(arguments, context: context)
    return try await ReportingDaemon(settings: settings, context: context).run()
}

ProductCauses.install()
await CommandLineTool.main(driverReport)
