#!/usr/bin/env bash
# make demo: the whole system end to end, on the embedded default store.
#
#   Executables/demo/demo.sh BIN_DIR          (make demo / make demo SERVER=1)
#
# A dispatcher (fleet-admin) creates a car and a ride in central Helsinki; the car's computer
# (driver-report) drives the ride on the city's streets, as Routino plans them on the OpenStreetMap
# extract `make map` builds (© OpenStreetMap contributors, ODbL), at DEMO_SPEEDUP times real speed,
# and reports the road route it navigates; a driver app (the loop below) advances the trip's status
# as the car arrives; the rider (consumer-follow) watches it live, route and road ETAs, until
# COMPLETE. Then a delivery round: a van (driver-report --delivery-vehicle) drives three stops on the
# streets, one delivery fails, and its customer (consumer-follow --tracking-id) follows that parcel to
# its outcome. SERVER=1 puts everything behind `fleet-admin serve` on loopback instead of sharing the
# SQLite file directly.
#
# The rider's and the operator's map pages (docs/map.md) are served throughout, by the server of
# SERVER=1 or else by a `fleet-admin serve` sharing the SQLite file; their URLs are printed first.
# On a terminal the demo then keeps that server up until Ctrl-C, so the finished ride can be looked at.
#
# Environment: SERVER=1, DEMO_SPEEDUP (default 40), FLEET_MAP_DIR (default: .build/map of this
# checkout), FLEET_DATA_DIR (default: a temporary folder, removed afterwards). Exits 0 only when the
# trip reached COMPLETE, the round's three deliveries closed as planned (two SUCCEEDED, one FAILED) and
# the follower of the failed one said so (exit 6); leaves nothing running, also when it fails or is stopped.
set -euo pipefail

bin="$(cd "${1:-.build/debug}" && pwd)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
map="${FLEET_MAP_DIR:-$here/../../.build/map}"
[ -f "$map/nodes.mem" ] || { echo "demo: no routing map in $map: run make map (make demo does)" >&2; exit 1; }
map="$(cd "$map" && pwd)"
export FLEET_ROUTER="routino:$map"
speedup="${DEMO_SPEEDUP:-40}"
provider="demo-project"

if [ -n "${FLEET_DATA_DIR:-}" ]; then
    data="$FLEET_DATA_DIR"; keep=1
else
    data="$(mktemp -d "${TMPDIR:-/tmp}/fleet-demo.XXXXXX")"; keep=0
fi
mkdir -p "$data"
export FLEET_DATA_DIR="$data" FLEET_PROVIDER="$provider"
store="sqlite:$data/fleet.db"

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ "$keep" = 1 ] || rm -rf "$data"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Bold headings on a terminal only: plain lines in logs and CI.
if [ -t 2 ] && [ -z "${NO_COLOR:-}" ]; then
    say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }
else
    say() { printf '\n== %s\n' "$*" >&2; }
fi

if [ "${SERVER:-0}" = 1 ]; then
    say "starting fleet-admin serve on loopback over $store"
    coproc SERVE { exec "$bin/fleet-admin" serve --listen 127.0.0.1:0 --store "$store" --no-access-log --map-roads "$map/roads.geojson"; }
    pids+=("$SERVE_PID")
    read -r line <&"${SERVE[0]}"
    echo "$line" >&2
    transport="$(echo "$line" | grep -o 'http://[^ ]*')"
    connect=(--transport "$transport")
else
    connect=(--transport memory --store "$store")
    # The map pages only: every other program shares the SQLite file directly.
    coproc SERVE { exec "$bin/fleet-admin" serve --listen 127.0.0.1:0 --store "$store" --no-access-log --map-roads "$map/roads.geojson"; }
    pids+=("$SERVE_PID")
    read -r line <&"${SERVE[0]}"
    transport="$(echo "$line" | grep -o 'http://[^ ]*')"
fi
admin() { "$bin/fleet-admin" "${connect[@]}" "$@"; }
# follow SECONDS COMMAND...: runs a follower for at most SECONDS and returns its exit status. It runs in the
# background and is waited for, so that Ctrl-C or a SIGTERM to the demo (which a foreground command would
# hold up) ends it too, with everything else the demo started.
follow() {
    timeout "$1" "${@:2}" &
    pids+=("$!")
    wait "$!"
}
say "the map: the rider's page, the operator's and the parcel customer's (open them in a browser)"
printf '  rider:    %s/map/trips/ride-1?provider=%s\n  operator: %s/map?provider=%s\n  customer: %s/map/tracking/parcel-2?provider=%s\n' \
    "$transport" "$provider" "$transport" "$provider" "$transport" "$provider" >&2

# The ride: from the Old Church Park area to Kruununhaka on Routino's quickest route; the pickup is the
# point of that route halfway along, so pickup and dropoff lie on streets the car drives.
read -r start pickup dropoff pickup_m polyline < <(
    "$bin/fleet-admin" route --from 60.1660,24.9400 --to 60.1745,24.9420 --category taxi --json | python3 -c '
import json, math, sys
r = json.load(sys.stdin)
def decode(text):
    points, index, lat, lng = [], 0, 0, 0
    while index < len(text):
        for axis in range(2):
            shift = result = 0
            while True:
                b = ord(text[index]) - 63; index += 1
                result |= (b & 0x1F) << shift; shift += 5
                if b < 0x20: break
            delta = ~(result >> 1) if result & 1 else result >> 1
            if axis == 0: lat += delta
            else: lng += delta
        points.append((lat / 1e5, lng / 1e5))
    return points
def distance(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))
points = decode(r["encodedPolyline"])
along, middle = 0.0, 0
for i in range(1, len(points)):
    along += distance(points[i - 1], points[i])
    if along >= r["distanceMeters"] / 2: middle, pickup_m = i, along; break
fmt = lambda p: "%.5f,%.5f" % p
print(fmt(points[0]), fmt(points[middle]), fmt(points[-1]), int(pickup_m), r["encodedPolyline"])')
say "a dispatcher creates the car and the ride (road route planned by Routino on $map)"
admin vehicles create car-1 --state online --type exclusive --category taxi --capacity 4 --location "$start"
admin trips create ride-1 --type exclusive --passengers 1 --pickup "$pickup" --dropoff "$dropoff" --vehicle car-1
admin trips status ride-1 enroute-to-pickup

say "the car drives the ride at ${speedup}x (driver-report: simulated GPS, navigating on the streets)"
"$bin/driver-report" "${connect[@]}" --provider "$provider" --vehicle car-1 \
    --source "simulate:polyline:$polyline" --speedup "$speedup" --interval 5s \
    --stops "${pickup_m}m:160s" --log-format text 2>"$data/driver-report.log" &
driver=$!
pids+=("$driver")

# The driver app: arrive, pick up, drop off, as the car reaches each stop (within 40 m of it). One Python
# process polls the trip (a fresh interpreter per poll took most of a second, long enough at 40x for the car
# to leave the pickup unseen). The car waits 160 s of demo time (4 s at 40x) at the pickup; the app moves on
# to ENROUTE_TO_DROPOFF after 1 s, and at once should the car have left already, so ARRIVED_AT_PICKUP never
# shows while the distance to the pickup grows.
driver_app() {
    python3 - "$bin/fleet-admin" "${connect[@]}" <<'PY'
import json, math, subprocess, sys, time
admin = sys.argv[1:]
def call(*args):
    return subprocess.run(admin + list(args), capture_output=True, text=True)
def distance(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a["latitude"], a["longitude"], b["latitude"], b["longitude"]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))
arrived_at = None
while True:
    got = call("trips", "get", "ride-1", "--json")
    if got.returncode != 0:
        time.sleep(0.2)
        continue
    trip = json.loads(got.stdout)
    status = trip.get("tripStatus", "?")
    car = (trip.get("lastLocation") or {}).get("location")
    stop = trip.get("dropoffPoint" if status == "ENROUTE_TO_DROPOFF" else "pickupPoint", {}).get("point")
    near = bool(car and stop and distance(car, stop) <= 40)
    if status == "ENROUTE_TO_PICKUP" and near:
        call("trips", "status", "ride-1", "arrived-at-pickup")
        arrived_at = time.monotonic()
    elif status == "ARRIVED_AT_PICKUP" and (not near or time.monotonic() - (arrived_at or 0) >= 1):
        call("trips", "status", "ride-1", "enroute-to-dropoff")
    elif status == "ENROUTE_TO_DROPOFF" and near:
        call("trips", "complete", "ride-1")
        break
    elif status in ("COMPLETE", "CANCELED"):
        break
    time.sleep(0.05)
PY
}
driver_app &
pids+=("$!")

say "the rider follows the ride (consumer-follow) until it is COMPLETE"
follow 90 "$bin/consumer-follow" "${connect[@]}" --interval 1s --time-scale "$speedup" "providers/$provider/trips/ride-1"

wait "$driver" || true
final="$(admin trips get ride-1 --json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("tripStatus"))')"
state="$(admin vehicles get car-1 --json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("vehicleState"))')"
say "the ride is $final; the car is $state (driver-report set it OFFLINE when its route ended)"
tail -n 3 "$data/driver-report.log" >&2 || true
[ "$final" = COMPLETE ] || exit 1

# The delivery round: a van leaves the depot by the railway station with three parcels for the streets
# south of the Esplanade. The van's computer (driver-report --delivery-vehicle, simulate:plan) drives each
# leg Routino plans to its next stop, marks the stop ENROUTE and ARRIVED as it gets there, and after the
# stop's task time removes it, which closes its task; the provider's backend (the loop below, fleet-admin)
# then records each outcome. Nobody is home at the second stop, so that delivery fails: the customer
# waiting for parcel-2 follows it (consumer-follow --tracking-id) from the depot to that outcome.
depot=60.17120,24.94140 stop1=60.16780,24.94470 stop2=60.16520,24.94800 stop3=60.16330,24.94360
say "a dispatcher creates the delivery van and, from a task file, its three deliveries"
admin delivery-vehicles create van-1 --type auto --location "$depot"
cat >"$data/round.csv" <<CSV
task_id,type,tracking_id,latitude,longitude,duration
drop-1,delivery,parcel-1,$stop1,2m
drop-2,delivery,parcel-2,$stop2,2m
drop-3,delivery,parcel-3,$stop3,2m
CSV
admin tasks batch-create "$data/round.csv"

say "the round is planned: three stops, each leg measured on the streets"
admin delivery-vehicles update van-1 --stop "$stop1:drop-1" --stop "$stop2:drop-2" --stop "$stop3:drop-3"

say "the van drives the round at ${speedup}x (driver-report: simulated GPS along each leg it plans; stops marked ENROUTE, ARRIVED and served)"
"$bin/driver-report" "${connect[@]}" --provider "$provider" --delivery-vehicle van-1 \
    --source simulate:plan --speedup "$speedup" --interval 5s --log-format text 2>"$data/van-report.log" &
van=$!
pids+=("$van")

# The provider's backend: as each stop is served (its task CLOSED), the outcome the driver reported.
record_outcomes() {
    local task_outcome task outcome deadline=$((SECONDS + 150))
    for task_outcome in drop-1:succeeded drop-2:failed drop-3:succeeded; do
        task="${task_outcome%%:*}" outcome="${task_outcome##*:}"
        until [ "$(admin tasks get "$task" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("state"))' 2>/dev/null)" = CLOSED ]; do
            [ "$SECONDS" -lt "$deadline" ] || { echo "demo: $task was not served in time" >&2; return 1; }
            sleep 0.3
        done
        admin tasks close "$task" --outcome "$outcome" >/dev/null
        printf '%s %s\n' "$task" "${outcome^^}"
    done
}
record_outcomes >"$data/outcomes.log" &
backend=$!
pids+=("$backend")

say "the customer of parcel-2 follows it (consumer-follow --tracking-id) until the delivery's outcome"
following=0
follow 120 "$bin/consumer-follow" "${connect[@]}" --tracking-id parcel-2 --interval 1s --time-scale "$speedup" \
    --events taskState,taskOutcome,remainingStopCount,estimatedArrivalTime || following=$?
say "consumer-follow exited $following (6: the delivery failed)"
[ "$following" = 6 ] || exit 1

wait "$backend" || { tail -n 5 "$data/van-report.log" >&2; exit 1; }
say "the backend recorded the outcomes as the van served its stops"
cat "$data/outcomes.log" >&2
kill -TERM "$van" 2>/dev/null || true
wait "$van" || true
grep -E 'stop-(enroute|arrived|completed)' "$data/van-report.log" >&2 || true

say "the round is over: the van's tasks"
admin tasks list --filter 'delivery_vehicle_id = "van-1"'
say "the customer of parcel-3 checks its tracking info after the round"
admin tasks tracking-info parcel-3
outcomes="$(admin tasks list --filter 'delivery_vehicle_id = "van-1"' --json | python3 -c '
import json, sys
tasks = json.load(sys.stdin)
tasks = tasks if isinstance(tasks, list) else tasks.get("tasks", [])
print(" ".join("%s=%s/%s" % (t["name"].rsplit("/", 1)[-1], t.get("state"), t.get("taskOutcome")) for t in sorted(tasks, key=lambda t: t["name"])))')"
say "the delivery round is over: $outcomes"
[ "$outcomes" = "drop-1=CLOSED/SUCCEEDED drop-2=CLOSED/FAILED drop-3=CLOSED/SUCCEEDED" ] || exit 1
if [ -t 1 ] && [ -t 0 ]; then
    say "the map stays up: $transport/map/trips/ride-1?provider=$provider  (Ctrl-C to stop)"
    trap 'exit 0' INT TERM
    wait "$SERVE_PID" || true
fi
