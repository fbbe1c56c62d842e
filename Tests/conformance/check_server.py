#!/usr/bin/env python3
"""REST conformance: Google's own Fleet Engine types against a running `fleet-admin serve`.

Google's types (PyPI google-maps-fleetengine) build every request and serialise it with `to_json`;
the request goes over HTTP to the server on Fleet Engine's REST path; every answer is parsed with
`from_json(..., ignore_unknown_fields=False)`, so a field name, enum or format Google's types do not
know fails the check. Error answers must be Google's error body.

    check_server.py --binary .build/debug/fleet-admin [--store URL]
"""
import argparse
import json
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

from google.maps import fleetengine_v1 as fe

PROVIDER = "conformance-project"
PARENT = f"providers/{PROVIDER}"
failures = []


def to_json(message, drop=()):
    text = type(message).to_json(message, use_integers_for_enums=False, including_default_value_fields=False)
    body = json.loads(text)
    for key in drop:
        body.pop(key, None)
    return body


def http(url, verb, path, body=None, query=None):
    target = url + path
    if query:
        target += "?" + urllib.parse.urlencode(query, doseq=True)
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(target, data=data, method=verb, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def expect(name, status, text, message_type):
    if status != 200:
        failures.append(f"{name}: HTTP {status}: {text[:300]}")
        return None
    try:
        parsed = message_type.from_json(text, ignore_unknown_fields=False)
        print(f"ok   {name}: {message_type.__name__} parsed strictly ({len(text)} bytes)")
        return parsed
    except Exception as error:  # noqa: BLE001 — any parse failure is a conformance failure
        failures.append(f"{name}: Google's {message_type.__name__} rejected the answer: {error}\n{text[:500]}")
        return None


def expect_numbers(name, text, expected):
    """The answer's top-level enums are written as `expected` says (numbers or names)."""
    body = json.loads(text)
    got = {key: body.get(key) for key in expected}
    if got == expected:
        print(f"ok   {name}: {got}")
    else:
        failures.append(f"{name}: expected {expected}, got {got}")


def expect_error(name, status, text, http_status, grpc_status):
    try:
        error = json.loads(text)["error"]
        ok = status == http_status and error["code"] == http_status and error["status"] == grpc_status and error["message"]
    except (ValueError, KeyError, TypeError):
        ok = False
    if ok:
        print(f"ok   {name}: {http_status} {grpc_status}")
    else:
        failures.append(f"{name}: expected {http_status} {grpc_status}, got {status}: {text[:300]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--store", default="memory", help="the server's store URL (a fresh, empty one)")
    arguments = parser.parse_args()
    server = subprocess.Popen([arguments.binary, "serve", "--listen", "127.0.0.1:0", "--store", arguments.store, "--no-access-log"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if "http://" not in line:
            print(f"fleet-admin serve did not start: {line!r} {server.stderr.read()}", file=sys.stderr)
            return 1
        url = line[line.index("http://"):].split()[0]
        run(url)
    finally:
        server.terminate()
        server.wait(timeout=20)
    if failures:
        print(f"\n{len(failures)} conformance failure(s):", file=sys.stderr)
        for failure in failures:
            print(" - " + failure, file=sys.stderr)
        return 1
    print(f"\nREST conformance ({arguments.store.split('://')[0]} store): every answer parsed strictly by Google's types")
    return 0


def run(url):
    from google.type import latlng_pb2

    def point(lat, lng):
        return latlng_pb2.LatLng(latitude=lat, longitude=lng)

    vehicle = fe.Vehicle(
        vehicle_state=fe.VehicleState.ONLINE,
        supported_trip_types=[fe.TripType.EXCLUSIVE, fe.TripType.SHARED],
        maximum_capacity=4,
        vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO),
        attributes=[fe.VehicleAttribute(key="ev", bool_value=True), fe.VehicleAttribute(key="tier", string_value="premium")],
        license_plate=fe.LicensePlate(country_code="DE", last_character="7"),
        last_location=fe.VehicleLocation(location=point(52.52, 13.40), heading=90, speed_kmph=30),
        back_to_back_enabled=True,
    )
    status, text = http(url, "POST", f"/v1/{PARENT}/vehicles", to_json(vehicle), {"vehicleId": "v1"})
    expect("CreateVehicle", status, text, fe.Vehicle)
    status, text = http(url, "POST", f"/v1/{PARENT}/vehicles", to_json(vehicle), {"vehicleId": "v1"})
    expect_error("CreateVehicle duplicate", status, text, 409, "ALREADY_EXISTS")
    status, text = http(url, "GET", f"/v1/{PARENT}/vehicles/v1")
    expect("GetVehicle", status, text, fe.Vehicle)

    update = fe.Vehicle(last_location=fe.VehicleLocation(location=point(52.521, 13.401)), navigation_status=fe.NavigationStatus.ENROUTE_TO_DESTINATION)
    status, text = http(url, "PUT", f"/v1/{PARENT}/vehicles/v1", to_json(update), {"updateMask": "lastLocation,navigationStatus"})
    expect("UpdateVehicle", status, text, fe.Vehicle)
    status, text = http(url, "PUT", f"/v1/{PARENT}/vehicles/v1", to_json(update))
    expect_error("UpdateVehicle empty mask", status, text, 400, "INVALID_ARGUMENT")

    # `$alt=json;enum-encoding=int`, which Google's REST clients add to every call: enums as numbers, in
    # bodies sent and in answers (reads, and UpdateVehicle, whose answer is otherwise the stored JSON).
    numeric = {"$alt": "json;enum-encoding=int"}
    status, text = http(url, "GET", f"/v1/{PARENT}/vehicles/v1", query=numeric)
    if expect("GetVehicle $alt=json;enum-encoding=int", status, text, fe.Vehicle) is not None:
        expect_numbers("GetVehicle $alt=json;enum-encoding=int", text, {"vehicleState": 2, "navigationStatus": 2})
    status, text = http(url, "PUT", f"/v1/{PARENT}/vehicles/v1", {"vehicleState": 2},
                        {"updateMask": "vehicleState", **numeric})
    if expect("UpdateVehicle $alt=json;enum-encoding=int, enum sent as a number", status, text, fe.Vehicle) is not None:
        expect_numbers("UpdateVehicle $alt=json;enum-encoding=int", text, {"vehicleState": 2, "navigationStatus": 2})
    status, text = http(url, "GET", f"/v1/{PARENT}/vehicles/v1", query={"$alt": "json"})
    if expect("GetVehicle $alt=json", status, text, fe.Vehicle) is not None:
        expect_numbers("GetVehicle $alt=json (names)", text, {"vehicleState": "ONLINE", "navigationStatus": "ENROUTE_TO_DESTINATION"})
    status, text = http(url, "GET", f"/v1/{PARENT}/vehicles/v1", query={"$alt": "proto"})
    expect_error("GetVehicle $alt=proto", status, text, 400, "INVALID_ARGUMENT")

    attributes = fe.UpdateVehicleAttributesRequest(name=f"{PARENT}/vehicles/v1", attributes=[fe.VehicleAttribute(key="seats", number_value=4)])
    status, text = http(url, "POST", f"/v1/{PARENT}/vehicles/v1:updateAttributes", to_json(attributes, drop=("name",)))
    expect("UpdateVehicleAttributes", status, text, fe.UpdateVehicleAttributesResponse)

    status, text = http(url, "GET", f"/v1/{PARENT}/vehicles",
                        query={"vehicleTypeCategories": ["AUTO", "TAXI"], "pageSize": 10, "vehicleState": "ONLINE", "tripTypes": ["EXCLUSIVE"]})
    expect("ListVehicles", status, text, fe.ListVehiclesResponse)

    trip = fe.Trip(
        trip_type=fe.TripType.EXCLUSIVE,
        pickup_point=fe.TerminalLocation(point=point(52.53, 13.41)),
        dropoff_point=fe.TerminalLocation(point=point(52.50, 13.45)),
        intermediate_destinations=[fe.TerminalLocation(point=point(52.51, 13.43))],
        number_of_passengers=2,
        vehicle_id="v1",
        attributes=[fe.TripAttribute(key="vip", bool_value=True)],
    )
    status, text = http(url, "POST", f"/v1/{PARENT}/trips", to_json(trip), {"tripId": "t1"})
    created = expect("CreateTrip", status, text, fe.Trip)

    search = fe.SearchVehiclesRequest(
        parent=PARENT, pickup_point=fe.TerminalLocation(point=point(52.52, 13.40)), pickup_radius_meters=2000, count=10,
        minimum_capacity=1, trip_types=[fe.TripType.EXCLUSIVE], vehicle_types=[fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO)],
        order_by=fe.SearchVehiclesRequest.VehicleMatchOrder.PICKUP_POINT_ETA,
        current_trips_present=fe.SearchVehiclesRequest.CurrentTripsPresent.ANY,
        dropoff_point=fe.TerminalLocation(point=point(52.50, 13.45)))
    status, text = http(url, "POST", f"/v1/{PARENT}/vehicles:search", to_json(search, drop=("parent",)))
    found = expect("SearchVehicles", status, text, fe.SearchVehiclesResponse)
    if found is not None and len(found.matches) != 1:
        failures.append(f"SearchVehicles: expected 1 match, got {len(found.matches)}")

    for view in ["SDK", "JOURNEY_SHARING_V1S"]:
        status, text = http(url, "GET", f"/v1/{PARENT}/trips/t1", query={"view": view})
        expect(f"GetTrip view={view}", status, text, fe.Trip)
    status, text = http(url, "GET", f"/v1/{PARENT}/trips/t1", query={"routeFormatType": "ENCODED_POLYLINE_TYPE"})
    expect("GetTrip encoded route", status, text, fe.Trip)

    if created is not None:
        status, text = http(url, "PUT", f"/v1/{PARENT}/trips/t1", to_json(fe.Trip(trip_status=fe.TripStatus.ENROUTE_TO_PICKUP)),
                            {"updateMask": "trip_status"})
        expect("UpdateTrip (snake_case mask)", status, text, fe.Trip)
    status, text = http(url, "PUT", f"/v1/{PARENT}/trips/t1", to_json(fe.Trip(trip_status=fe.TripStatus.COMPLETE)), {"updateMask": "tripStatus"})
    expect_error("UpdateTrip illegal transition", status, text, 400, "FAILED_PRECONDITION")

    trips = fe.SearchTripsRequest(parent=PARENT, vehicle_id="v1", active_trips_only=True, page_size=10)
    status, text = http(url, "POST", f"/v1/{PARENT}/trips:search", to_json(trips, drop=("parent",)))
    expect("SearchTrips", status, text, fe.SearchTripsResponse)

    report = fe.ReportBillableTripRequest(name=f"{PARENT}/billableTrips/b1", country_code="DE",
                                          platform=fe.BillingPlatformIdentifier.SERVER, related_ids=["t1"],
                                          solution_type=fe.ReportBillableTripRequest.SolutionType.ON_DEMAND_RIDESHARING_AND_DELIVERIES)
    status, text = http(url, "POST", f"/v1/{PARENT}/billableTrips/b1:report", to_json(report, drop=("name",)))
    if status != 200 or json.loads(text) != {}:
        failures.append(f"ReportBillableTrip: expected 200 {{}}, got {status} {text[:200]}")
    else:
        print("ok   ReportBillableTrip: {}")

    status, text = http(url, "PUT", f"/v1/{PARENT}/trips/t1", to_json(fe.Trip(trip_status=fe.TripStatus.CANCELED)), {"updateMask": "tripStatus"})
    expect("UpdateTrip cancel", status, text, fe.Trip)
    status, text = http(url, "DELETE", f"/v1/{PARENT}/trips/t1")
    if status != 200 or json.loads(text) != {}:
        failures.append(f"DeleteTrip: expected 200 {{}}, got {status} {text[:200]}")
    else:
        print("ok   DeleteTrip: {}")
    status, text = http(url, "GET", f"/v1/{PARENT}/trips/t1")
    expect_error("GetTrip after delete", status, text, 404, "NOT_FOUND")
    status, text = http(url, "DELETE", f"/v1/{PARENT}/vehicles/v1")
    if status != 200:
        failures.append(f"DeleteVehicle: {status} {text[:200]}")
    else:
        print("ok   DeleteVehicle: {}")
    status, text = http(url, "GET", f"/v1/{PARENT}/trips/t1:nope")
    expect_error("unknown custom verb", status, text, 404, "NOT_FOUND")


if __name__ == "__main__":
    sys.exit(main())
