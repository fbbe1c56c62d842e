#!/usr/bin/env python3
"""gRPC conformance: Google's own Fleet Engine client (PyPI google-maps-fleetengine), unmodified, against
a running `fleet-admin serve --grpc-listen`.

The generated clients (`VehicleServiceClient`, `TripServiceClient`) talk over
`grpc.insecure_channel` to the server, which also serves REST on the same engine:

1. An open server: the vehicle and trip lifecycle through Google's client (create, get, update with
   masks, list with Google's pager, search, delete, billing report), the error codes NOT_FOUND,
   ALREADY_EXISTS, INVALID_ARGUMENT (naming the field), FAILED_PRECONDITION and UNIMPLEMENTED, a
   malformed message, and each call made both ways (REST and gRPC) with the answers compared as JSON.
2. A server with HS256 tokens (minted by `fleet-admin token mint`) and a rate limit: the token travels
   as `authorization` metadata; PERMISSION_DENIED, UNAUTHENTICATED and RESOURCE_EXHAUSTED.

    check_grpc.py --binary .build/debug/fleet-admin [--store URL]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import grpc
from google.api_core import exceptions
from google.maps import fleetengine_v1 as fe
from google.maps.fleetengine_v1.services.trip_service.transports.grpc import TripServiceGrpcTransport
from google.maps.fleetengine_v1.services.vehicle_service.transports.grpc import VehicleServiceGrpcTransport
from google.type import latlng_pb2

PROVIDER = "grpc-conformance"
PARENT = f"providers/{PROVIDER}"
failures = []


def ok(name, detail=""):
    print(f"ok   {name}{': ' + detail if detail else ''}")


def check(name, condition, detail):
    if condition:
        ok(name)
    else:
        failures.append(f"{name}: {detail}")


def point(lat, lng):
    return latlng_pb2.LatLng(latitude=lat, longitude=lng)


def as_json(message):
    return json.loads(type(message).to_json(message, use_integers_for_enums=False, including_default_value_fields=False))


def start_server(binary, store, extra):
    """Starts `fleet-admin serve` with REST and gRPC on free ports; returns (process, http URL, gRPC target)."""
    server = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--grpc-listen", "127.0.0.1:0", "--store", store,
                               "--no-access-log"] + extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    match = re.search(r"(http://\S+) and grpc://(\S+)", line)
    if not match:
        server.terminate()
        raise SystemExit(f"fleet-admin serve did not start: {line!r} {server.stderr.read()}")
    return server, match.group(1), match.group(2)


def stop(server):
    server.terminate()
    code = server.wait(timeout=30)
    if code != 0:
        failures.append(f"server exit status {code} after SIGTERM: {server.stderr.read()[-500:]}")


def clients(target):
    channel = grpc.insecure_channel(target)
    return (channel, fe.VehicleServiceClient(transport=VehicleServiceGrpcTransport(channel=channel)),
            fe.TripServiceClient(transport=TripServiceGrpcTransport(channel=channel)))


def expect_grpc_error(name, call, exception_type, code_name, message_part=None):
    """Runs `call`; it must raise Google's exception for the code, with the message naming `message_part`."""
    try:
        call()
    except exceptions.GoogleAPICallError as error:
        got = error.grpc_status_code.name if error.grpc_status_code is not None else type(error).__name__
        if not isinstance(error, exception_type) or got != code_name:
            failures.append(f"{name}: expected {code_name}, got {got}: {error.message}")
        elif message_part is not None and message_part not in error.message:
            failures.append(f"{name}: {code_name} as expected, but the message does not name {message_part!r}: {error.message}")
        else:
            ok(name, f"{code_name}: {error.message}")
        return error
    failures.append(f"{name}: expected {code_name}, the call succeeded")
    return None


def http(url, verb, path, body=None, query=None, token=None):
    target = url + path
    if query:
        target += "?" + urllib.parse.urlencode(query, doseq=True)
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(target, data=data, method=verb, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read().decode() or "{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode() or "{}")


# What the server derives from the clock when it answers (ETAs, remaining times) or when it writes.
VOLATILE = re.compile(r"(?i)(.*time$|.*eta$|^eta.*|^remainingTime.*|.*version$)")


def stable(value, drop_names=False):
    """JSON without the values derived from the clock (and, for two writes, the resources' own names),
    for comparing two answers given a moment apart."""
    if isinstance(value, dict):
        return {k: stable(v, drop_names) for k, v in value.items()
                if not VOLATILE.match(k) and not (drop_names and k in ("name", "tripId"))}
    if isinstance(value, list):
        return [stable(v, drop_names) for v in value]
    return value


def same(name, rest, grpc_message, message_type, writes=False):
    """REST's JSON (read through Google's type) and gRPC's message must say the same."""
    status, body = rest
    if status != 200:
        failures.append(f"{name}: REST answered {status}: {body}")
        return
    rest_json = as_json(message_type.from_json(json.dumps(body), ignore_unknown_fields=False))
    grpc_json = as_json(grpc_message)
    rest_json, grpc_json = stable(rest_json, drop_names=writes), stable(grpc_json, drop_names=writes)
    check(f"REST = gRPC: {name}", rest_json == grpc_json, "; ".join(differences(rest_json, grpc_json))[:1500])


def differences(a, b, path=""):
    """Where two JSON values differ, as `path: REST value != gRPC value`."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {json.dumps(a)[:120]} != {json.dumps(b)[:120]}"]


def same_error(name, rest, grpc_call):
    status, body = rest
    try:
        grpc_call()
    except exceptions.GoogleAPICallError as error:
        error_body = body.get("error", {})
        rest_reason = next((d.get("reason") for d in error_body.get("details", []) if "reason" in d), None)
        rest_field = next((d["fieldViolations"][0]["field"] for d in error_body.get("details", []) if "fieldViolations" in d), None)
        grpc_field = next((d.field_violations[0].field for d in error.details if hasattr(d, "field_violations")), None)
        check(f"REST = gRPC error: {name} ({error.grpc_status_code.name}, reason {error.reason}, field {grpc_field})",
              error_body.get("status") == error.grpc_status_code.name and error_body.get("message") == error.message
              and rest_reason == error.reason and rest_field == grpc_field,
              f"REST {status} {error_body.get('status')} {error_body.get('message')!r} reason {rest_reason} field {rest_field}; "
              f"gRPC {error.grpc_status_code.name} {error.message!r} reason {error.reason} field {grpc_field}")
        return
    failures.append(f"{name}: gRPC call succeeded where REST answered {status}")


def open_server(url, target):
    channel, vehicles, trips = clients(target)
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
    created = vehicles.create_vehicle(request=fe.CreateVehicleRequest(parent=PARENT, vehicle_id="v1", vehicle=vehicle))
    check("CreateVehicle", created.name == f"{PARENT}/vehicles/v1" and created.maximum_capacity == 4
          and created.vehicle_state == fe.VehicleState.ONLINE, f"got {created}")
    expect_grpc_error("CreateVehicle duplicate", lambda: vehicles.create_vehicle(
        request=fe.CreateVehicleRequest(parent=PARENT, vehicle_id="v1", vehicle=vehicle)), exceptions.AlreadyExists, "ALREADY_EXISTS")
    got = vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/v1"))
    check("GetVehicle", got.license_plate.country_code == "DE" and len(got.attributes) == 2, f"got {got}")
    expect_grpc_error("GetVehicle unknown", lambda: vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/nope")),
                      exceptions.NotFound, "NOT_FOUND", "nope")

    update = fe.Vehicle(last_location=fe.VehicleLocation(location=point(52.521, 13.401)),
                        navigation_status=fe.NavigationStatus.ENROUTE_TO_DESTINATION)
    updated = vehicles.update_vehicle(request=fe.UpdateVehicleRequest(
        name=f"{PARENT}/vehicles/v1", vehicle=update, update_mask={"paths": ["last_location", "navigation_status"]}))
    check("UpdateVehicle with a mask", abs(updated.last_location.location.latitude - 52.521) < 1e-9
          and updated.navigation_status == fe.NavigationStatus.ENROUTE_TO_DESTINATION and updated.maximum_capacity == 4, f"got {updated}")
    expect_grpc_error("UpdateVehicle empty mask", lambda: vehicles.update_vehicle(request=fe.UpdateVehicleRequest(
        name=f"{PARENT}/vehicles/v1", vehicle=update)), exceptions.InvalidArgument, "INVALID_ARGUMENT", "update_mask")
    bad = fe.Vehicle(vehicle)
    bad.maximum_capacity = -1
    expect_grpc_error("CreateVehicle bad capacity", lambda: vehicles.create_vehicle(request=fe.CreateVehicleRequest(
        parent=PARENT, vehicle_id="bad", vehicle=bad)), exceptions.InvalidArgument, "INVALID_ARGUMENT", "aximum")
    attributes = vehicles.update_vehicle_attributes(request=fe.UpdateVehicleAttributesRequest(
        name=f"{PARENT}/vehicles/v1", attributes=[fe.VehicleAttribute(key="seats", number_value=4)]))
    check("UpdateVehicleAttributes", any(a.key == "seats" for a in attributes.attributes), f"got {attributes}")

    for i in range(2, 7):
        vehicles.create_vehicle(request=fe.CreateVehicleRequest(parent=PARENT, vehicle_id=f"v{i}", vehicle=vehicle))
    pages = vehicles.list_vehicles(request=fe.ListVehiclesRequest(parent=PARENT, page_size=2, vehicle_type_categories=[fe.Vehicle.VehicleType.Category.AUTO]))
    names = sorted(v.name.rsplit("/", 1)[1] for v in pages)
    check("ListVehicles through Google's pager (pages of 2)", names == [f"v{i}" for i in range(1, 7)], f"got {names}")

    trip = fe.Trip(
        trip_type=fe.TripType.EXCLUSIVE,
        pickup_point=fe.TerminalLocation(point=point(52.53, 13.41)),
        dropoff_point=fe.TerminalLocation(point=point(52.50, 13.45)),
        number_of_passengers=2,
        vehicle_id="v1",
    )
    made = trips.create_trip(request=fe.CreateTripRequest(parent=PARENT, trip_id="t1", trip=trip))
    check("CreateTrip", made.name == f"{PARENT}/trips/t1" and made.vehicle_id == "v1" and made.trip_status == fe.TripStatus.NEW, f"got {made}")
    found = vehicles.search_vehicles(request=fe.SearchVehiclesRequest(
        parent=PARENT, pickup_point=fe.TerminalLocation(point=point(52.52, 13.40)), pickup_radius_meters=2000, count=10,
        minimum_capacity=1, trip_types=[fe.TripType.EXCLUSIVE], vehicle_types=[fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO)],
        order_by=fe.SearchVehiclesRequest.VehicleMatchOrder.PICKUP_POINT_ETA))
    check("SearchVehicles", len(found.matches) >= 1, f"got {found}")

    for status in [fe.TripStatus.ENROUTE_TO_PICKUP, fe.TripStatus.ARRIVED_AT_PICKUP, fe.TripStatus.ENROUTE_TO_DROPOFF]:
        moved = trips.update_trip(request=fe.UpdateTripRequest(name=f"{PARENT}/trips/t1", trip=fe.Trip(trip_status=status),
                                                               update_mask={"paths": ["trip_status"]}))
        check(f"UpdateTrip to {status.name}", moved.trip_status == status, f"got {moved.trip_status}")
    expect_grpc_error("UpdateTrip illegal transition", lambda: trips.update_trip(request=fe.UpdateTripRequest(
        name=f"{PARENT}/trips/t1", trip=fe.Trip(trip_status=fe.TripStatus.NEW), update_mask={"paths": ["trip_status"]})),
        exceptions.FailedPrecondition, "FAILED_PRECONDITION")
    got_trip = trips.get_trip(request=fe.GetTripRequest(name=f"{PARENT}/trips/t1"))
    check("GetTrip", got_trip.trip_status == fe.TripStatus.ENROUTE_TO_DROPOFF, f"got {got_trip}")
    active = trips.search_trips(request=fe.SearchTripsRequest(parent=PARENT, vehicle_id="v1", active_trips_only=True, page_size=10))
    check("SearchTrips", [t.name for t in active] == [f"{PARENT}/trips/t1"], f"got {active}")
    trips.report_billable_trip(request=fe.ReportBillableTripRequest(name=f"{PARENT}/billableTrips/b1", country_code="DE",
                                                                    platform=fe.BillingPlatformIdentifier.SERVER, related_ids=["t1"]))
    ok("ReportBillableTrip")
    done = trips.update_trip(request=fe.UpdateTripRequest(name=f"{PARENT}/trips/t1", trip=fe.Trip(trip_status=fe.TripStatus.COMPLETE),
                                                          update_mask={"paths": ["trip_status"]}))
    check("UpdateTrip to COMPLETE", done.trip_status == fe.TripStatus.COMPLETE, f"got {done.trip_status}")
    trips.delete_trip(request=fe.DeleteTripRequest(name=f"{PARENT}/trips/t1"))
    expect_grpc_error("GetTrip after DeleteTrip", lambda: trips.get_trip(request=fe.GetTripRequest(name=f"{PARENT}/trips/t1")),
                      exceptions.NotFound, "NOT_FOUND", "t1")
    vehicles.delete_vehicle(request=fe.DeleteVehicleRequest(name=f"{PARENT}/vehicles/v6"))
    expect_grpc_error("GetVehicle after DeleteVehicle", lambda: vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/v6")),
                      exceptions.NotFound, "NOT_FOUND", "v6")

    # Bytes no Fleet Engine request is made of, and a method the services do not have, on the same channel.
    raw = channel.unary_unary("/maps.fleetengine.v1.TripService/GetTrip")
    expect_grpc_error("malformed request message", lambda: _raw(raw, b"\x0a\xff\xff\xff"), exceptions.InvalidArgument, "INVALID_ARGUMENT")
    missing = channel.unary_unary("/maps.fleetengine.v1.VehicleService/UpdateVehicleLocation")
    expect_grpc_error("deprecated method", lambda: _raw(missing, b""), exceptions.MethodNotImplemented, "UNIMPLEMENTED")

    rest_vs_grpc(url, vehicles, trips, vehicle, trip)
    channel.close()


def _raw(stub, payload):
    try:
        return stub(payload, timeout=10)
    except grpc.RpcError as error:
        raise exceptions.from_grpc_error(error) from error


def rest_vs_grpc(url, vehicles, trips, vehicle, trip):
    """Each call both ways on one server: the same answer, or the same error."""
    body = as_json(vehicle)
    same("CreateVehicle", http(url, "POST", f"/v1/{PARENT}/vehicles", body, {"vehicleId": "rest-1"}),
         vehicles.create_vehicle(request=fe.CreateVehicleRequest(parent=PARENT, vehicle_id="grpc-1", vehicle=vehicle)), fe.Vehicle, writes=True)
    same("GetVehicle", http(url, "GET", f"/v1/{PARENT}/vehicles/v2"),
         vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/v2")), fe.Vehicle)
    update = fe.Vehicle(last_location=fe.VehicleLocation(location=point(52.5205, 13.4005)), vehicle_state=fe.VehicleState.ONLINE)
    same("UpdateVehicle", http(url, "PUT", f"/v1/{PARENT}/vehicles/rest-1", as_json(update), {"updateMask": "lastLocation,vehicleState"}),
         vehicles.update_vehicle(request=fe.UpdateVehicleRequest(name=f"{PARENT}/vehicles/grpc-1", vehicle=update,
                                                                 update_mask={"paths": ["last_location", "vehicle_state"]})), fe.Vehicle, writes=True)
    listed = vehicles.list_vehicles(request=fe.ListVehiclesRequest(parent=PARENT, page_size=3, vehicle_type_categories=[fe.Vehicle.VehicleType.Category.AUTO]))
    same("ListVehicles (first page)", http(url, "GET", f"/v1/{PARENT}/vehicles", query={"pageSize": 3, "vehicleTypeCategories": "AUTO"}),
         next(iter(listed.pages)), fe.ListVehiclesResponse)
    search = fe.SearchVehiclesRequest(parent=PARENT, pickup_point=fe.TerminalLocation(point=point(52.52, 13.40)), pickup_radius_meters=2000,
                                      count=10, minimum_capacity=1, trip_types=[fe.TripType.EXCLUSIVE],
                                      vehicle_types=[fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO)],
                                      order_by=fe.SearchVehiclesRequest.VehicleMatchOrder.PICKUP_POINT_DISTANCE)
    search_body = as_json(search)
    search_body.pop("parent")
    same("SearchVehicles", http(url, "POST", f"/v1/{PARENT}/vehicles:search", search_body),
         vehicles.search_vehicles(request=search), fe.SearchVehiclesResponse)
    trip_r, trip_g = fe.Trip(trip), fe.Trip(trip)
    trip_r.vehicle_id, trip_g.vehicle_id = "rest-1", "grpc-1"
    rest_trip = http(url, "POST", f"/v1/{PARENT}/trips", as_json(trip_r), {"tripId": "rest-t"})
    grpc_trip = trips.create_trip(request=fe.CreateTripRequest(parent=PARENT, trip_id="grpc-t", trip=trip_g))
    if rest_trip[0] == 200:
        rest_trip[1]["vehicleId"] = "grpc-1"
    same("CreateTrip", rest_trip, grpc_trip, fe.Trip, writes=True)
    same("GetTrip", http(url, "GET", f"/v1/{PARENT}/trips/grpc-t"), trips.get_trip(request=fe.GetTripRequest(name=f"{PARENT}/trips/grpc-t")), fe.Trip)
    same("SearchTrips", http(url, "POST", f"/v1/{PARENT}/trips:search", {"vehicleId": "grpc-1", "activeTripsOnly": True}),
         trips.search_trips(request=fe.SearchTripsRequest(parent=PARENT, vehicle_id="grpc-1", active_trips_only=True)).pages.__next__(),
         fe.SearchTripsResponse)
    same_error("GetTrip unknown", http(url, "GET", f"/v1/{PARENT}/trips/none"),
               lambda: trips.get_trip(request=fe.GetTripRequest(name=f"{PARENT}/trips/none")))
    same_error("UpdateTrip without a mask", http(url, "PUT", f"/v1/{PARENT}/trips/grpc-t", {"tripStatus": "CANCELED"}),
               lambda: trips.update_trip(request=fe.UpdateTripRequest(name=f"{PARENT}/trips/grpc-t", trip=fe.Trip(trip_status=fe.TripStatus.CANCELED))))
    same_error("CreateVehicle duplicate", http(url, "POST", f"/v1/{PARENT}/vehicles", body, {"vehicleId": "grpc-1"}),
               lambda: vehicles.create_vehicle(request=fe.CreateVehicleRequest(parent=PARENT, vehicle_id="grpc-1", vehicle=vehicle)))
    status, metrics = http_text(url + "/metrics")
    check("/metrics counts gRPC calls by method and code",
          'fleet_grpc_requests_total{method="GetTrip",code="OK"}' in metrics
          and 'fleet_grpc_requests_total{method="CreateVehicle",code="ALREADY_EXISTS"}' in metrics, metrics[:400])


def http_text(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read().decode()


def token_server(binary, store):
    """HS256 tokens minted by `fleet-admin token mint`, sent by Google's client as `authorization` metadata."""
    folder = tempfile.mkdtemp(prefix="fleet-grpc-")
    secret = os.path.join(folder, "secret")
    with open(secret, "w") as f:
        f.write("s" * 48 + "\n")

    def mint(*arguments):
        return subprocess.run([binary, "token", "mint", "--secret-file", secret, *arguments], check=True,
                              capture_output=True, text=True).stdout.strip()

    server_token, driver_token = mint("--role", "server"), mint("--role", "driver", "--vehicle", "d1")
    other_driver = mint("--role", "driver", "--vehicle", "d9")
    server, url, target = start_server(binary, store, ["--jwt-secret-file", f"{PROVIDER}={secret}", "--rate-limit", "1", "--rate-burst", "3"])
    try:
        channel, vehicles, trips = clients(target)
        as_server = [("authorization", f"Bearer {server_token}")]
        made = vehicles.create_vehicle(request=fe.CreateVehicleRequest(parent=PARENT, vehicle_id="d1", vehicle=fe.Vehicle(
            vehicle_state=fe.VehicleState.ONLINE, maximum_capacity=4, supported_trip_types=[fe.TripType.EXCLUSIVE], vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO))), metadata=as_server)
        check("CreateVehicle with a server token", made.name == f"{PARENT}/vehicles/d1", f"got {made}")
        got = vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/d1"), metadata=[("authorization", f"Bearer {driver_token}")])
        check("GetVehicle with its driver's token", got.name == made.name, f"got {got}")
        expect_grpc_error("CreateTrip with a driver token", lambda: trips.create_trip(
            request=fe.CreateTripRequest(parent=PARENT, trip_id="x", trip=fe.Trip(trip_type=fe.TripType.EXCLUSIVE)),
            metadata=[("authorization", f"Bearer {driver_token}")]), exceptions.PermissionDenied, "PERMISSION_DENIED")
        # A missing token is PERMISSION_DENIED (JWT_MISSING), as the Consumer SDK guide lists "JWT missing".
        expect_grpc_error("GetVehicle without a token", lambda: vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/d1")),
                          exceptions.PermissionDenied, "PERMISSION_DENIED")
        expect_grpc_error("GetVehicle with a forged token", lambda: vehicles.get_vehicle(
            request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/d1"), metadata=[("authorization", f"Bearer {server_token[:-4]}AAAA")]),
            exceptions.Unauthenticated, "UNAUTHENTICATED")

        def burst():
            for _ in range(10):
                try:
                    vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"{PARENT}/vehicles/d9"),
                                         metadata=[("authorization", f"Bearer {other_driver}")], retry=None)
                except exceptions.NotFound:
                    pass
        expect_grpc_error("a burst over --rate-limit", burst, exceptions.ResourceExhausted, "RESOURCE_EXHAUSTED")
        channel.close()
    finally:
        stop(server)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--store", default="memory", help="the server's store URL (a fresh, empty one)")
    arguments = parser.parse_args()
    server, url, target = start_server(arguments.binary, arguments.store, [])
    try:
        open_server(url, target)
    finally:
        stop(server)
    token_server(arguments.binary, "memory")
    return report("gRPC conformance", "Google's own client, unmodified, against fleet-admin serve --grpc-listen")


def report(label, success):
    """Prints the failures (to standard error) or the success line; the exit status."""
    if failures:
        print(f"\n{len(failures)} {label} failure(s):", file=sys.stderr)
        for failure in failures:
            print(" - " + failure, file=sys.stderr)
        return 1
    print(f"\n{label}: {success}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
