#!/usr/bin/env python3
"""Deliveries conformance: Google's own `DeliveryServiceClient` (PyPI google-maps-fleetengine-delivery),
unmodified, over both its REST transport and its gRPC transport, against a running
`fleet-admin serve --listen … --grpc-listen …` that this script starts (and stops, also on failure).

1. The REST transport as Google ships it: it adds `$alt=json;enum-encoding=int` to every call, writes
   enums in bodies as numbers, sends IDs (`deliveryVehicleId`, `taskId`) and `updateMask` (camelCase)
   as query parameters and updates with PATCH on `/v1/{delivery_vehicle.name=…}` and `/v1/{task.name=…}`.
   Raw HTTP checks the other `$alt` values: `json` answers enums by name, anything else is
   INVALID_ARGUMENT naming `$alt`.
2. A whole round, once over each transport, each on a provider of its own (`deliveries-rest`,
   `deliveries-grpc`), through every one of the twelve methods: delivery vehicles with attributes,
   BatchCreateTasks and CreateTask, assignment through UpdateDeliveryVehicle's
   `remainingVehicleJourneySegments`, a stop ENROUTE then ARRIVED then served (removed, which closes
   its task), the outcome through UpdateTask (its location taken from the vehicle's, or given),
   GetTaskTrackingInfo; ListTasks in pages of 2 over 5 tasks through Google's pager; the filters
   `state = OPEN`, `tracking_id = "…"`, `delivery_vehicle_id = "…"`, `task_outcome`, `type`, AND and
   OR, and ListDeliveryVehicles' `attributes.depot = "north"` and viewport; and the documented errors: NOT_FOUND, ALREADY_EXISTS,
   INVALID_ARGUMENT naming the field, FAILED_PRECONDITION (deleting an assigned OPEN task, a vehicle
   with OPEN tasks).
3. Google's types parse every answer strictly: each REST body (read off the transport's own HTTP
   session) with `from_json(ignore_unknown_fields=False)`, its enums numbers as asked; each gRPC
   message without unknown fields.
4. The two rounds' answers are equal as JSON, and so are their errors (code, message, reason, field),
   once the provider is blanked out of names and the values the server derives from the clock are
   left out: `serverTime`, `updateTime` (filled in when the device sends none), `estimatedArrivalTime`,
   `estimatedTaskCompletionTime`, `drivingDuration`, `remainingDuration`, `timeSinceUpdate`, and
   `nextPageToken` (opaque, free to differ between two providers' listings).
5. A server with HS256 tokens (`fleet-admin token mint`): a token of the wrong role is
   PERMISSION_DENIED over both transports (a fleet reader creating a task, a driver deleting one, a
   driver reading another vehicle), as is a call without a token; a forged token is UNAUTHENTICATED;
   a server token is admitted.

    check_delivery.py --binary .build/debug/fleet-admin [--store URL]
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import grpc
from google.api_core import exceptions
from google.auth.credentials import AnonymousCredentials
from google.maps import fleetengine_delivery_v1 as fd
from google.maps.fleetengine_delivery_v1.services.delivery_service.transports.grpc import DeliveryServiceGrpcTransport
from google.maps.fleetengine_delivery_v1.services.delivery_service.transports.rest import DeliveryServiceRestTransport
from google.protobuf import duration_pb2, timestamp_pb2, unknown_fields
from google.geo.type.types import viewport as viewport_types
from google.type import latlng_pb2

from check_grpc import check, differences, failures, ok, report, start_server, stop
from check_models import enum_names_left

Task, Vehicle, Stop, Segment = fd.Task, fd.DeliveryVehicle, fd.VehicleStop, fd.VehicleJourneySegment
# Google's HTTP status for each gRPC code the round expects.
HTTP_STATUS = {"INVALID_ARGUMENT": 400, "FAILED_PRECONDITION": 400, "NOT_FOUND": 404, "ALREADY_EXISTS": 409, "PERMISSION_DENIED": 403,
               "UNAUTHENTICATED": 401}
VOLATILE = {"serverTime", "updateTime", "estimatedArrivalTime", "estimatedTaskCompletionTime", "drivingDuration",
            "remainingDuration", "timeSinceUpdate", "nextPageToken"}
# Where the round happens (Helsinki): the vehicle, and the planned locations of tasks t1 to t4.
START, A, B, C, D = (60.1690, 24.9350), (60.1700, 24.9400), (60.1720, 24.9450), (60.1750, 24.9500), (60.1680, 24.9550)
OUTCOME_TIME = timestamp_pb2.Timestamp(seconds=1_900_000_000)
WINDOW = fd.TimeWindow(start_time=timestamp_pb2.Timestamp(seconds=1_900_000_000), end_time=timestamp_pb2.Timestamp(seconds=1_900_003_600))


def point(where):
    return latlng_pb2.LatLng(latitude=where[0], longitude=where[1])


def location(where):
    return fd.LocationInfo(point=point(where))


def seconds(n):
    return duration_pb2.Duration(seconds=n)


def lasting(value, n):
    """Whether a Duration field (read by proto-plus as a timedelta) is n seconds."""
    return value == datetime.timedelta(seconds=n)


def at(value, stamp):
    """Whether a Timestamp field (read by proto-plus as a datetime) is the Timestamp `stamp`."""
    return value is not None and value == stamp.ToDatetime(tzinfo=datetime.timezone.utc)


def as_json(message):
    return json.loads(type(message).to_json(message, use_integers_for_enums=False, always_print_fields_with_no_presence=False))


class TokenInMetadata(AnonymousCredentials):
    """No credentials of the client's own: the token, when there is one, travels as metadata, as over
    gRPC. Unlike AnonymousCredentials it accepts being refreshed, which the REST transport's session
    does on a 401 before handing the 401 to the client (AnonymousCredentials raise instead)."""

    def refresh(self, request):
        pass


class Client:
    """Google's client over one transport, on one provider, with what it answered recorded for the
    comparison of the two transports (`transcript`) and, over REST, each answer's body as it came
    off the wire (a response hook on the transport's own `requests` session)."""

    def __init__(self, kind, url, target, provider, metadata=()):
        self.kind, self.provider, self.metadata = kind, provider, list(metadata)
        self.parent = f"providers/{provider}"
        self.transcript = []
        self.bodies = []
        if kind == "rest":
            transport = DeliveryServiceRestTransport(host=url, credentials=TokenInMetadata())
            transport._session.hooks["response"].append(lambda response, *_, **__: self.bodies.append(response))
            self.channel = None
        else:
            self.channel = grpc.insecure_channel(target)
            transport = DeliveryServiceGrpcTransport(channel=self.channel)
        self.api = fd.DeliveryServiceClient(transport=transport)

    def close(self):
        if self.channel is not None:
            self.channel.close()

    def name(self, collection, identifier):
        return f"{self.parent}/{collection}/{identifier}"

    def call(self, step, method, request, response_type):
        """Calls `method` (a DeliveryServiceClient method name) and checks the answer with Google's types.
        `response_type` None: the method answers Empty. A List call answers its pages, through Google's pager."""
        self.bodies.clear()
        answer = getattr(self.api, method)(request=request, metadata=self.metadata)
        messages = list(answer.pages) if method.startswith("list_") else ([] if answer is None else [answer])
        self.check_wire(step, messages, response_type)
        self.transcript.append((step, [as_json(m) for m in messages]))
        return messages if method.startswith("list_") else answer

    def check_wire(self, step, messages, response_type):
        if self.kind == "rest":
            bodies = [r for r in self.bodies if r.status_code == 200]
            if len(bodies) != max(1, len(messages)):
                failures.append(f"{step} [rest]: {len(bodies)} answers seen on the wire for {len(messages)} messages")
                return
            for body, message in zip(bodies, messages or [None]):
                if response_type is None:
                    check(f"{step} [rest]: Empty is {{}}", body.text.strip() == "{}", body.text[:200])
                    continue
                try:
                    strict = response_type.from_json(body.text, ignore_unknown_fields=False)
                except Exception as error:  # noqa: BLE001 - any parse failure is a finding
                    failures.append(f"{step} [rest]: Google's {response_type.__name__} rejected the answer: {error}: {body.text[:300]}")
                    continue
                named = enum_names_left(json.loads(body.text), response_type.pb().DESCRIPTOR)
                if named:
                    failures.append(f"{step} [rest]: enums by name although the transport asked for enum-encoding=int: {named[:5]}")
                if as_json(strict) != as_json(message):
                    failures.append(f"{step} [rest]: the strict reading differs from the client's")
        else:
            for message in messages:
                unknown = unknown_in(type(message).pb(message))
                if unknown:
                    failures.append(f"{step} [grpc]: fields Google's {type(message).__name__} does not know: {unknown}")

    def error(self, step, method, request, code, field=None):
        """The call must fail with `code` (over REST: the body's `status`, under the HTTP status Google maps
        it to); `field` (when given) must be named, in JSON or proto spelling."""
        name = f"{step} [{self.kind}]"
        try:
            getattr(self.api, method)(request=request, metadata=self.metadata)
        except exceptions.GoogleAPICallError as error:
            message = re.sub(r"^[A-Z]+ \S+: ", "", error.message)  # the REST transport's "VERB URL: " prefix
            got = self.code_of(error)
            names = [] if field is None else [field, snake(field)]
            if got != code:
                failures.append(f"{name}: expected {code}, got {got}: {message}")
            elif self.kind == "rest" and error.code != HTTP_STATUS[code]:
                failures.append(f"{name}: {code} under HTTP {error.code}, not {HTTP_STATUS[code]}")
            elif names and not any(n in message for n in names):
                failures.append(f"{name}: {code} as expected, but the message names none of {names}: {message}")
            else:
                ok(name, f"{code}: {message}")
            self.transcript.append((step, {"error": got, "message": message, "reason": error.reason}))
            return
        failures.append(f"{name}: expected {code}, the call succeeded")
        self.transcript.append((step, {"error": None}))

    def code_of(self, error):
        """The gRPC code of an error: gRPC's status, or the `status` of REST's error body."""
        if self.kind == "grpc":
            return error.grpc_status_code.name if error.grpc_status_code is not None else type(error).__name__
        try:
            return error.response.json()["error"]["status"]
        except (ValueError, KeyError, TypeError, AttributeError):
            return f"HTTP {error.code} without Google's error body"


def snake(name):
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def unknown_in(pb, path=""):
    """The numbers of the unknown fields anywhere in a protobuf message."""
    found = [f"{path}#{field.field_number}" for field in unknown_fields.UnknownFieldSet(pb)]
    for descriptor, value in pb.ListFields():
        if descriptor.message_type is not None:
            for item in (value if descriptor.is_repeated else [value]):
                found += unknown_in(item, f"{path}{descriptor.name}.")
    return found


def new_task(kind, tracking=None, where=None, duration=120, **extra):
    task = Task(type_=kind, state=Task.State.OPEN, task_duration=seconds(duration), **extra)
    if tracking is not None:
        task.tracking_id = tracking
    if where is not None:
        task.planned_location = location(where)
    return task


def stops(*entries):
    """Journey segments from (where, task IDs, state) entries."""
    return [Segment(stop=Stop(planned_location=location(where), tasks=[Stop.TaskInfo(task_id=t) for t in ids], state=state))
            for where, ids, state in entries]


def ids(tasks):
    return sorted(t.name.rsplit("/", 1)[1] for t in tasks)


# MARK: - The round


# The round's vehicle, the tracking view of t1 and t3 (stop count and vehicle location always shown), and
# van-1's stops once t1..t4 are assigned.
VAN = Vehicle(type_=Vehicle.DeliveryVehicleType.AUTO, last_location=fd.DeliveryVehicleLocation(location=point(START), heading=90),
              attributes=[fd.DeliveryVehicleAttribute(key="depot", string_value="north")])
VIEW = fd.TaskTrackingViewConfig(remaining_stop_count_visibility=fd.TaskTrackingViewConfig.VisibilityOption(always=True),
                                 vehicle_location_visibility=fd.TaskTrackingViewConfig.VisibilityOption(always=True))
PLAN = [(A, ["t1"], Stop.State.ENROUTE), (B, ["t2"], Stop.State.NEW), (C, ["t3"], Stop.State.NEW), (D, ["t4"], Stop.State.NEW)]


def vehicles(c):
    """Two delivery vehicles with attributes; the refusals of CreateDeliveryVehicle and GetDeliveryVehicle."""
    made = c.call("CreateDeliveryVehicle", "create_delivery_vehicle",
                  fd.CreateDeliveryVehicleRequest(parent=c.parent, delivery_vehicle_id="van-1", delivery_vehicle=VAN), Vehicle)
    check(f"CreateDeliveryVehicle [{c.kind}]", made.name == c.name("deliveryVehicles", "van-1") and made.type_ == Vehicle.DeliveryVehicleType.AUTO
          and [(a.key, a.string_value, a.value) for a in made.attributes] == [("depot", "north", "north")], f"got {made}")
    c.call("CreateDeliveryVehicle (second)", "create_delivery_vehicle", fd.CreateDeliveryVehicleRequest(
        parent=c.parent, delivery_vehicle_id="bike-2", delivery_vehicle=Vehicle(
            type_=Vehicle.DeliveryVehicleType.TWO_WHEELER, attributes=[fd.DeliveryVehicleAttribute(key="depot", string_value="south")])), Vehicle)
    c.error("CreateDeliveryVehicle duplicate", "create_delivery_vehicle",
            fd.CreateDeliveryVehicleRequest(parent=c.parent, delivery_vehicle_id="van-1", delivery_vehicle=VAN), "ALREADY_EXISTS")
    c.error("CreateDeliveryVehicle with a field it may not set", "create_delivery_vehicle", fd.CreateDeliveryVehicleRequest(
        parent=c.parent, delivery_vehicle_id="van-x", delivery_vehicle=Vehicle(remaining_vehicle_journey_segments=stops((A, ["t1"], Stop.State.NEW)))),
        "INVALID_ARGUMENT", "remainingVehicleJourneySegments")
    c.error("CreateDeliveryVehicle bad ID", "create_delivery_vehicle",
            fd.CreateDeliveryVehicleRequest(parent=c.parent, delivery_vehicle_id="van#1", delivery_vehicle=VAN),
            "INVALID_ARGUMENT", "deliveryVehicleId")
    got = c.call("GetDeliveryVehicle", "get_delivery_vehicle", fd.GetDeliveryVehicleRequest(name=c.name("deliveryVehicles", "van-1")), Vehicle)
    check(f"GetDeliveryVehicle [{c.kind}]", got.name == made.name and abs(got.last_location.location.latitude - START[0]) < 1e-9, f"got {got}")
    c.error("GetDeliveryVehicle unknown", "get_delivery_vehicle", fd.GetDeliveryVehicleRequest(name=c.name("deliveryVehicles", "nope")),
            "NOT_FOUND", "nope")


def tasks(c):
    """Four tasks in a batch, one alone (a break: no tracking ID, no planned location); CreateTask's
    refusals; ListTasks in pages of 2 through Google's pager."""
    batch = [("t1", new_task(Task.Type.DELIVERY, "trk-1", A, target_time_window=WINDOW, task_tracking_view_config=VIEW,
                             attributes=[fd.TaskAttribute(key="fragile", bool_value=True)])),
             ("t2", new_task(Task.Type.PICKUP, "trk-2", B)),
             ("t3", new_task(Task.Type.DELIVERY, "trk-3", C, task_tracking_view_config=VIEW)),
             ("t4", new_task(Task.Type.SCHEDULED_STOP, None, D, duration=300))]
    created = c.call("BatchCreateTasks", "batch_create_tasks", fd.BatchCreateTasksRequest(
        parent=c.parent, requests=[fd.CreateTaskRequest(parent=c.parent, task_id=i, task=t) for i, t in batch]), fd.BatchCreateTasksResponse)
    check(f"BatchCreateTasks [{c.kind}]", ids(created.tasks) == ["t1", "t2", "t3", "t4"]
          and all(t.state == Task.State.OPEN and not t.delivery_vehicle_id for t in created.tasks), f"got {created}")
    lone = c.call("CreateTask", "create_task", fd.CreateTaskRequest(parent=c.parent, task_id="t5", task=new_task(Task.Type.UNAVAILABLE, duration=600)), Task)
    check(f"CreateTask [{c.kind}]", lone.name == c.name("tasks", "t5") and lone.type_ == Task.Type.UNAVAILABLE
          and lasting(lone.task_duration, 600), f"got {lone}")
    for step, task, field in [
            ("CreateTask CLOSED", Task(new_task(Task.Type.DELIVERY, "trk-9", A), state=Task.State.CLOSED), "state"),
            ("CreateTask UNAVAILABLE with a tracking ID", new_task(Task.Type.UNAVAILABLE, "trk-9"), "trackingId"),
            ("CreateTask DELIVERY without a tracking ID", new_task(Task.Type.DELIVERY, None, A), "trackingId"),
            ("CreateTask without a duration", Task(type_=Task.Type.PICKUP, state=Task.State.OPEN, tracking_id="trk-9", planned_location=location(A)), "taskDuration"),
            ("CreateTask with an output-only field", new_task(Task.Type.PICKUP, "trk-9", A, delivery_vehicle_id="van-1"), "deliveryVehicleId")]:
        c.error(step, "create_task", fd.CreateTaskRequest(parent=c.parent, task_id="t9", task=task), "INVALID_ARGUMENT", field)
    c.error("CreateTask bad ID", "create_task", fd.CreateTaskRequest(parent=c.parent, task_id="t,9", task=new_task(Task.Type.PICKUP, "trk-9", A)),
            "INVALID_ARGUMENT", "taskId")
    c.error("CreateTask duplicate", "create_task", fd.CreateTaskRequest(parent=c.parent, task_id="t1", task=batch[0][1]),
            "ALREADY_EXISTS")
    c.error("BatchCreateTasks with another parent inside", "batch_create_tasks", fd.BatchCreateTasksRequest(parent=c.parent, requests=[
        fd.CreateTaskRequest(parent="providers/someone-else", task_id="t9", task=new_task(Task.Type.PICKUP, "trk-9", A))]),
        "INVALID_ARGUMENT", "parent")
    c.error("GetTask unknown", "get_task", fd.GetTaskRequest(name=c.name("tasks", "nope")), "NOT_FOUND", "nope")

    pages = c.call("ListTasks in pages of 2", "list_tasks", fd.ListTasksRequest(parent=c.parent, page_size=2), fd.ListTasksResponse)
    check(f"ListTasks through Google's pager, pages of 2 [{c.kind}]",
          [len(p.tasks) for p in pages] == [2, 2, 1] and ids(t for p in pages for t in p.tasks) == ["t1", "t2", "t3", "t4", "t5"]
          and pages[0].total_size == 5, f"got {[(ids(p.tasks), p.total_size) for p in pages]}")


def assignment(c):
    """The vehicle moves, then takes t1..t4 as four stops, the first ENROUTE: what the tasks, the vehicle
    and the tracking info then say."""
    moved = c.call("UpdateDeliveryVehicle location", "update_delivery_vehicle", fd.UpdateDeliveryVehicleRequest(
        delivery_vehicle=Vehicle(name=c.name("deliveryVehicles", "van-1"), last_location=fd.DeliveryVehicleLocation(location=point((60.1695, 24.9375)))),
        update_mask={"paths": ["last_location"]}), Vehicle)
    check(f"UpdateDeliveryVehicle last_location [{c.kind}]", abs(moved.last_location.location.longitude - 24.9375) < 1e-9
          and [a.key for a in moved.attributes] == ["depot"], f"got {moved}")
    assigned = c.call("UpdateDeliveryVehicle assigns four stops", "update_delivery_vehicle", fd.UpdateDeliveryVehicleRequest(
        delivery_vehicle=Vehicle(name=c.name("deliveryVehicles", "van-1"), remaining_vehicle_journey_segments=stops(*PLAN)),
        update_mask={"paths": ["remaining_vehicle_journey_segments"]}), Vehicle)
    check(f"UpdateDeliveryVehicle remaining_vehicle_journey_segments [{c.kind}]",
          [([t.task_id for t in s.stop.tasks], s.stop.state) for s in assigned.remaining_vehicle_journey_segments]
          == [(ids_, state) for _, ids_, state in PLAN], f"got {assigned.remaining_vehicle_journey_segments}")
    t1 = c.call("GetTask assigned", "get_task", fd.GetTaskRequest(name=c.name("tasks", "t1")), Task)
    check(f"GetTask: t1 is van-1's, OPEN [{c.kind}]", t1.delivery_vehicle_id == "van-1" and t1.state == Task.State.OPEN
          and t1.target_time_window == WINDOW and [a.key for a in t1.attributes] == ["fragile"], f"got {t1}")
    t5 = c.call("GetTask unassigned", "get_task", fd.GetTaskRequest(name=c.name("tasks", "t5")), Task)
    check(f"GetTask: t5 has no vehicle [{c.kind}]", not t5.delivery_vehicle_id, f"got {t5}")
    vehicle = c.call("GetDeliveryVehicle with stops", "get_delivery_vehicle", fd.GetDeliveryVehicleRequest(name=c.name("deliveryVehicles", "van-1")), Vehicle)
    first = vehicle.remaining_vehicle_journey_segments[0].stop if vehicle.remaining_vehicle_journey_segments else Stop()
    check(f"GetDeliveryVehicle: the stops, with each task's duration and time window [{c.kind}]",
          len(vehicle.remaining_vehicle_journey_segments) == 4 and [t.task_id for t in first.tasks] == ["t1"]
          and lasting(first.tasks[0].task_duration, 120) and first.tasks[0].target_time_window == WINDOW, f"got {vehicle}")
    tracking = c.call("GetTaskTrackingInfo", "get_task_tracking_info", fd.GetTaskTrackingInfoRequest(name=c.name("taskTrackingInfo", "trk-1")), fd.TaskTrackingInfo)
    check(f"GetTaskTrackingInfo trk-1 [{c.kind}]", tracking.name == c.name("taskTrackingInfo", "trk-1") and tracking.tracking_id == "trk-1"
          and tracking.state == Task.State.OPEN and tracking.planned_location == location(A) and tracking.remaining_stop_count == 1, f"got {tracking}")
    third = c.call("GetTaskTrackingInfo third stop", "get_task_tracking_info", fd.GetTaskTrackingInfoRequest(name=c.name("taskTrackingInfo", "trk-3")), fd.TaskTrackingInfo)
    check(f"GetTaskTrackingInfo trk-3: three stops to go [{c.kind}]", third.remaining_stop_count == 3, f"got {third}")
    c.error("GetTaskTrackingInfo unknown", "get_task_tracking_info", fd.GetTaskTrackingInfoRequest(name=c.name("taskTrackingInfo", "trk-none")),
            "NOT_FOUND", "trk-none")


def task_filters(c):
    """ListTasks' filters on task properties, and its refusal of one it cannot read."""
    open_tasks = c.call("ListTasks state = OPEN", "list_tasks", fd.ListTasksRequest(parent=c.parent, filter="state = OPEN"), fd.ListTasksResponse)
    check(f"ListTasks state = OPEN [{c.kind}]", ids(t for p in open_tasks for t in p.tasks) == ["t1", "t2", "t3", "t4", "t5"], f"got {open_tasks}")
    tracked = c.call("ListTasks tracking_id", "list_tasks", fd.ListTasksRequest(parent=c.parent, filter='tracking_id = "trk-2"'), fd.ListTasksResponse)
    check(f'ListTasks tracking_id = "trk-2" [{c.kind}]', ids(t for p in tracked for t in p.tasks) == ["t2"], f"got {tracked}")
    vans = c.call("ListTasks delivery_vehicle_id", "list_tasks", fd.ListTasksRequest(parent=c.parent, filter='delivery_vehicle_id = "van-1"'), fd.ListTasksResponse)
    check(f'ListTasks delivery_vehicle_id = "van-1" [{c.kind}]', ids(t for p in vans for t in p.tasks) == ["t1", "t2", "t3", "t4"], f"got {vans}")
    c.error("ListTasks malformed filter", "list_tasks", fd.ListTasksRequest(parent=c.parent, filter="state = = OPEN"),
            "INVALID_ARGUMENT", "filter")


def vehicle_filters(c):
    """ListDeliveryVehicles' attribute filter, its pages through Google's pager, and a filter it refuses."""
    north = c.call("ListDeliveryVehicles attributes", "list_delivery_vehicles",
                   fd.ListDeliveryVehiclesRequest(parent=c.parent, filter='attributes.depot = "north"'), fd.ListDeliveryVehiclesResponse)
    listed = [v for p in north for v in p.delivery_vehicles]
    check(f'ListDeliveryVehicles attributes.depot = "north" [{c.kind}]', ids(listed) == ["van-1"]
          and all(not v.remaining_vehicle_journey_segments for v in listed), f"got {north}")
    every = c.call("ListDeliveryVehicles in pages of 1", "list_delivery_vehicles", fd.ListDeliveryVehiclesRequest(parent=c.parent, page_size=1),
                   fd.ListDeliveryVehiclesResponse)
    check(f"ListDeliveryVehicles through Google's pager, pages of 1 [{c.kind}]",
          ids(v for p in every for v in p.delivery_vehicles) == ["bike-2", "van-1"] and len(every) == 2, f"got {every}")
    c.error("ListDeliveryVehicles filter on no attribute", "list_delivery_vehicles", fd.ListDeliveryVehiclesRequest(parent=c.parent, filter="type = AUTO"),
            "INVALID_ARGUMENT", "filter")
    # The viewport: van-1 reports within the round's square of Helsinki; bike-2 has reported no location.
    around = viewport_types.Viewport(low=point((60.10, 24.85)), high=point((60.25, 25.05)))
    inside = c.call("ListDeliveryVehicles viewport", "list_delivery_vehicles",
                    fd.ListDeliveryVehiclesRequest(parent=c.parent, viewport=around), fd.ListDeliveryVehiclesResponse)
    check(f"ListDeliveryVehicles viewport around the round [{c.kind}]", ids(v for p in inside for v in p.delivery_vehicles) == ["van-1"],
          f"got {inside}")
    elsewhere = viewport_types.Viewport(low=point((48.10, 11.50)), high=point((48.20, 11.60)))
    outside = c.call("ListDeliveryVehicles viewport elsewhere", "list_delivery_vehicles",
                     fd.ListDeliveryVehiclesRequest(parent=c.parent, viewport=elsewhere), fd.ListDeliveryVehiclesResponse)
    check(f"ListDeliveryVehicles viewport elsewhere [{c.kind}]", not [v for p in outside for v in p.delivery_vehicles], f"got {outside}")


def refusals(c):
    """What is refused while tasks are assigned and open, and updates without a mask or a vehicle."""
    c.error("DeleteTask assigned and OPEN", "delete_task", fd.DeleteTaskRequest(name=c.name("tasks", "t3")), "FAILED_PRECONDITION")
    c.error("DeleteDeliveryVehicle with OPEN tasks", "delete_delivery_vehicle", fd.DeleteDeliveryVehicleRequest(name=c.name("deliveryVehicles", "van-1")),
            "FAILED_PRECONDITION")
    c.error("UpdateDeliveryVehicle without a mask", "update_delivery_vehicle", fd.UpdateDeliveryVehicleRequest(
        delivery_vehicle=Vehicle(name=c.name("deliveryVehicles", "van-1"), navigation_status=fd.DeliveryVehicleNavigationStatus.NO_GUIDANCE)),
        "INVALID_ARGUMENT", "updateMask")
    c.error("UpdateDeliveryVehicle unknown", "update_delivery_vehicle", fd.UpdateDeliveryVehicleRequest(
        delivery_vehicle=Vehicle(name=c.name("deliveryVehicles", "nope"), navigation_status=fd.DeliveryVehicleNavigationStatus.NO_GUIDANCE),
        update_mask={"paths": ["navigation_status"]}), "NOT_FOUND", "nope")


def outcomes(c):
    """The first stop: arrived, then served (removed from the list), which closes t1; then its outcome,
    and the updates refused once it is set."""
    plan = [(A, ["t1"], Stop.State.ARRIVED)] + PLAN[1:]
    arrived = c.call("UpdateDeliveryVehicle stop ARRIVED", "update_delivery_vehicle", fd.UpdateDeliveryVehicleRequest(
        delivery_vehicle=Vehicle(name=c.name("deliveryVehicles", "van-1"), remaining_vehicle_journey_segments=stops(*plan)),
        update_mask={"paths": ["remaining_vehicle_journey_segments"]}), Vehicle)
    check(f"UpdateDeliveryVehicle: first stop ARRIVED [{c.kind}]", arrived.remaining_vehicle_journey_segments[0].stop.state == Stop.State.ARRIVED,
          f"got {arrived.remaining_vehicle_journey_segments[:1]}")
    plan = [(B, ["t2"], Stop.State.ENROUTE)] + plan[2:]
    c.call("UpdateDeliveryVehicle stop served", "update_delivery_vehicle", fd.UpdateDeliveryVehicleRequest(
        delivery_vehicle=Vehicle(name=c.name("deliveryVehicles", "van-1"), remaining_vehicle_journey_segments=stops(*plan)),
        update_mask={"paths": ["remaining_vehicle_journey_segments"]}), Vehicle)
    closed = c.call("GetTask served", "get_task", fd.GetTaskRequest(name=c.name("tasks", "t1")), Task)
    check(f"GetTask: t1 CLOSED once its stop is removed [{c.kind}]", closed.state == Task.State.CLOSED, f"got {closed}")
    outcome = c.call("UpdateTask outcome", "update_task", fd.UpdateTaskRequest(
        task=Task(name=c.name("tasks", "t1"), task_outcome=Task.TaskOutcome.SUCCEEDED, task_outcome_time=OUTCOME_TIME),
        update_mask={"paths": ["task_outcome", "task_outcome_time"]}), Task)
    where = outcome.task_outcome_location.point
    check(f"UpdateTask: SUCCEEDED, located at the vehicle's last location [{c.kind}]",
          outcome.task_outcome == Task.TaskOutcome.SUCCEEDED and at(outcome.task_outcome_time, OUTCOME_TIME)
          and outcome.task_outcome_location_source == Task.TaskOutcomeLocationSource.LAST_VEHICLE_LOCATION
          and abs(where.latitude - 60.1695) < 1e-9 and abs(where.longitude - 24.9375) < 1e-9, f"got {outcome}")
    # The docs say an outcome cannot change once set and an assigned task is not closed with UpdateTask,
    # without naming a code: a refusal is FAILED_PRECONDITION (the task's state forbids it).
    c.error("UpdateTask changes a set outcome", "update_task", fd.UpdateTaskRequest(
        task=Task(name=c.name("tasks", "t1"), task_outcome=Task.TaskOutcome.FAILED), update_mask={"paths": ["task_outcome"]}),
        "FAILED_PRECONDITION")
    c.error("UpdateTask closes an assigned task", "update_task", fd.UpdateTaskRequest(
        task=Task(name=c.name("tasks", "t2"), state=Task.State.CLOSED), update_mask={"paths": ["state"]}),
        "FAILED_PRECONDITION")
    c.error("UpdateTask without a mask", "update_task", fd.UpdateTaskRequest(task=Task(name=c.name("tasks", "t2"), task_outcome=Task.TaskOutcome.FAILED)),
            "INVALID_ARGUMENT", "updateMask")
    c.error("UpdateTask unknown", "update_task", fd.UpdateTaskRequest(task=Task(name=c.name("tasks", "nope"), state=Task.State.CLOSED),
                                                                      update_mask={"paths": ["state"]}), "NOT_FOUND", "nope")
    finished = c.call("GetTaskTrackingInfo after the outcome", "get_task_tracking_info",
                      fd.GetTaskTrackingInfoRequest(name=c.name("taskTrackingInfo", "trk-1")), fd.TaskTrackingInfo)
    check(f"GetTaskTrackingInfo trk-1: CLOSED, SUCCEEDED [{c.kind}]", finished.state == Task.State.CLOSED
          and finished.task_outcome == Task.TaskOutcome.SUCCEEDED and at(finished.task_outcome_time, OUTCOME_TIME), f"got {finished}")
    still_open = c.call("ListTasks state = OPEN after a stop", "list_tasks", fd.ListTasksRequest(parent=c.parent, filter="state = OPEN"), fd.ListTasksResponse)
    check(f"ListTasks state = OPEN after t1 closed [{c.kind}]", ids(t for p in still_open for t in p.tasks) == ["t2", "t3", "t4", "t5"], f"got {still_open}")
    for query, expected in [("task_outcome = SUCCEEDED", ["t1"]), ("type = PICKUP", ["t2"]),
                            ("state = OPEN AND type = DELIVERY", ["t3"]), ("type = DELIVERY OR type = UNAVAILABLE", ["t1", "t3", "t5"])]:
        found = c.call(f"ListTasks {query}", "list_tasks", fd.ListTasksRequest(parent=c.parent, filter=query), fd.ListTasksResponse)
        check(f"ListTasks {query} [{c.kind}]", ids(t for p in found for t in p.tasks) == expected, f"got {found}")


def unassigned(c):
    """An unassigned task is closed with UpdateTask, its outcome located where the provider says."""
    direct = c.call("UpdateTask closes an unassigned task", "update_task", fd.UpdateTaskRequest(
        task=Task(name=c.name("tasks", "t5"), state=Task.State.CLOSED, task_outcome=Task.TaskOutcome.FAILED, task_outcome_location=location(D),
                  task_outcome_time=OUTCOME_TIME),
        update_mask={"paths": ["state", "task_outcome", "task_outcome_location", "task_outcome_time"]}), Task)
    check(f"UpdateTask: t5 CLOSED, FAILED, located by the provider [{c.kind}]", direct.state == Task.State.CLOSED
          and direct.task_outcome == Task.TaskOutcome.FAILED and direct.task_outcome_location == location(D)
          and direct.task_outcome_location_source == Task.TaskOutcomeLocationSource.PROVIDER, f"got {direct}")


def deletions(c):
    """Deleting an unassigned task; the vehicle's stops removed (which closes their tasks), then the vehicle."""
    c.call("DeleteTask", "delete_task", fd.DeleteTaskRequest(name=c.name("tasks", "t5")), None)
    c.error("GetTask after DeleteTask", "get_task", fd.GetTaskRequest(name=c.name("tasks", "t5")), "NOT_FOUND", "t5")
    emptied = c.call("UpdateDeliveryVehicle removes every stop", "update_delivery_vehicle", fd.UpdateDeliveryVehicleRequest(
        delivery_vehicle=Vehicle(name=c.name("deliveryVehicles", "van-1")), update_mask={"paths": ["remaining_vehicle_journey_segments"]}), Vehicle)
    check(f"UpdateDeliveryVehicle: no stops left [{c.kind}]", not emptied.remaining_vehicle_journey_segments, f"got {emptied}")
    rest_closed = c.call("ListTasks after the last stop", "list_tasks", fd.ListTasksRequest(parent=c.parent, filter="state = OPEN"), fd.ListTasksResponse)
    check(f"ListTasks: no OPEN task once the stops are gone [{c.kind}]", not [t for p in rest_closed for t in p.tasks], f"got {rest_closed}")
    c.call("DeleteTask closed", "delete_task", fd.DeleteTaskRequest(name=c.name("tasks", "t3")), None)
    c.call("DeleteDeliveryVehicle", "delete_delivery_vehicle", fd.DeleteDeliveryVehicleRequest(name=c.name("deliveryVehicles", "van-1")), None)
    c.error("GetDeliveryVehicle after DeleteDeliveryVehicle", "get_delivery_vehicle",
            fd.GetDeliveryVehicleRequest(name=c.name("deliveryVehicles", "van-1")), "NOT_FOUND", "van-1")


# The round: every method over one transport, in parts that build on the ones before.
ROUND = [vehicles, tasks, assignment, task_filters, vehicle_filters, refusals, outcomes, unassigned, deletions]


def run_round(c):
    """The round's parts in turn. A part whose call fails where it expects an answer stops there, with
    the step it stopped after recorded; the next part still runs (and may then fail for want of what
    the stopped part would have done)."""
    for part in ROUND:
        steps = len(c.transcript)
        try:
            part(c)
            ok(f"round over {c.kind}: {part.__name__} done")
        except Exception as error:  # noqa: BLE001 - an error answer, or an answer missing what the next step reads
            step = c.transcript[-1][0] if len(c.transcript) > steps else "its first call"
            detail = error.message if isinstance(error, exceptions.GoogleAPICallError) else str(error)
            failures.append(f"round over {c.kind}: {part.__name__} stopped after {step!r}: {type(error).__name__}: {detail}")
            c.transcript.append((f"{part.__name__} stopped", None))


def stable(value, provider):
    """JSON without the clock's values, with the provider blanked out of every string."""
    if isinstance(value, dict):
        return {k: stable(v, provider) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(v, provider) for v in value]
    if isinstance(value, str):
        return value.replace(provider, "{provider}")
    return value


def compare_transports(rest, grpc_client):
    """The same step over both transports answered the same."""
    steps_r, steps_g = [s for s, _ in rest.transcript], [s for s, _ in grpc_client.transcript]
    if not steps_r or not steps_g:
        failures.append(f"REST = gRPC: nothing to compare (REST made {len(steps_r)} steps, gRPC {len(steps_g)})")
        return
    check("REST and gRPC rounds made the same steps", steps_r == steps_g, f"REST {len(steps_r)} steps, gRPC {len(steps_g)}")
    for (step, r), (_, g) in zip(rest.transcript, grpc_client.transcript):
        a, b = stable(r, rest.provider), stable(g, grpc_client.provider)
        check(f"REST = gRPC: {step}", a == b, "; ".join(differences(a, b))[:1500])


# MARK: - $alt over raw HTTP


def http(url, verb, path, query="", body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{url}{path}{'?' + query if query else ''}", data=data, method=verb, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def alt_parameter(url):
    """`$alt` as Google's REST clients send it, and as they do not: the answers' enums, and the refusals."""
    parent = "providers/deliveries-alt"
    body = as_json(new_task(Task.Type.PICKUP, "trk-alt", A))
    status, text = http(url, "POST", f"/v1/{parent}/tasks", "taskId=alt-1&%24alt=json%3Benum-encoding%3Dint", body)
    if status != 200:
        failures.append(f"$alt=json;enum-encoding=int: CreateTask answered {status}: {text[:300]}; the enum encodings of answers are not checked")
    else:
        check("$alt=json;enum-encoding=int: enums as numbers", json.loads(text).get("type") == 1 and json.loads(text).get("state") == 1, text[:300])
        for query, expected in [("%24alt=json", "PICKUP"), ("alt=json", "PICKUP"), ("", "PICKUP"), ("alt=json%3Benum-encoding%3Dint", 1)]:
            status, text = http(url, "GET", f"/v1/{parent}/tasks/alt-1", query)
            check(f"GetTask ?{query or '(no $alt)'}: type {expected!r}", status == 200 and json.loads(text).get("type") == expected, f"{status} {text[:300]}")
    for query, named in [("%24alt=proto", "$alt"), ("%24alt=media", "$alt"), ("alt=sse", "alt"), ("%24alt=json%3Benum-encoding%3Dstring", "$alt"),
                         ("%24alt=json&alt=json%3Benum-encoding%3Dint", "alt")]:
        status, text = http(url, "GET", f"/v1/{parent}/tasks/alt-1", query)
        error = json.loads(text).get("error", {}) if text.startswith("{") else {}
        fields = [v["field"] for d in error.get("details", []) for v in d.get("fieldViolations", [])]
        check(f"GetTask ?{query}: 400 INVALID_ARGUMENT naming {named}", status == 400 and error.get("status") == "INVALID_ARGUMENT"
              and fields == [named] and named in error.get("message", ""), f"{status} {text[:300]}")


# MARK: - Tokens


def token_server(binary, store):
    """PERMISSION_DENIED for a token of the wrong role (and for none), over both transports; a server token admitted."""
    provider = "deliveries-tokens"
    folder = tempfile.mkdtemp(prefix="fleet-delivery-")
    secret = os.path.join(folder, "secret")
    with open(secret, "w") as handle:
        handle.write("d" * 48 + "\n")

    def mint(*arguments):
        minted = subprocess.run([binary, "token", "mint", "--secret-file", secret, *arguments], capture_output=True, text=True)
        if minted.returncode != 0:
            failures.append(f"token mint {' '.join(arguments)}: exit {minted.returncode}: {minted.stderr.strip()[:300]}")
        return minted.stdout.strip()

    tokens = {"server": mint("--role", "server"), "fleet-reader": mint("--role", "fleet-reader"),
              "driver": mint("--role", "driver", "--delivery-vehicle", "van-1")}
    tokens["forged"] = tokens["server"][:-4] + "AAAA"
    server, url, target = start_server(binary, store, ["--jwt-secret-file", f"{provider}={secret}"])
    clients = []
    try:
        for kind in ("rest", "grpc"):
            def client(role):
                made = Client(kind, url, target, provider, [("authorization", f"Bearer {tokens[role]}")] if role else [])
                clients.append(made)
                return made
            as_server = client("server")
            try:
                as_server.call("CreateDeliveryVehicle with a server token", "create_delivery_vehicle",
                               fd.CreateDeliveryVehicleRequest(parent=as_server.parent, delivery_vehicle_id=f"van-{kind}", delivery_vehicle=Vehicle()), Vehicle)
                ok(f"CreateDeliveryVehicle with a server token [{kind}]")
            except exceptions.GoogleAPICallError as error:
                failures.append(f"CreateDeliveryVehicle with a server token [{kind}]: {type(error).__name__}: {error.message}")
            reader, driver, nobody, forger = client("fleet-reader"), client("driver"), client(None), client("forged")
            reader.error("CreateTask with a fleet-reader token", "create_task", fd.CreateTaskRequest(
                parent=reader.parent, task_id="t1", task=new_task(Task.Type.PICKUP, "trk-1", A)), "PERMISSION_DENIED")
            driver.error("DeleteTask with a driver token", "delete_task", fd.DeleteTaskRequest(name=driver.name("tasks", "t1")),
                         "PERMISSION_DENIED")
            driver.error("GetDeliveryVehicle of another vehicle with a driver token", "get_delivery_vehicle",
                         fd.GetDeliveryVehicleRequest(name=driver.name("deliveryVehicles", "van-2")), "PERMISSION_DENIED")
            nobody.error("ListTasks without a token", "list_tasks", fd.ListTasksRequest(parent=nobody.parent), "PERMISSION_DENIED")
            forger.error("ListTasks with a forged token", "list_tasks", fd.ListTasksRequest(parent=forger.parent), "UNAUTHENTICATED")
    finally:
        for made in clients:
            made.close()
        stop(server)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--store", default="memory", help="the server's store URL (a fresh, empty one)")
    arguments = parser.parse_args()
    server, url, target = start_server(arguments.binary, arguments.store, [])
    rest = grpc_client = None
    try:
        alt_parameter(url)
        rest = Client("rest", url, target, "deliveries-rest")
        grpc_client = Client("grpc", url, target, "deliveries-grpc")
        run_round(rest)
        run_round(grpc_client)
        compare_transports(rest, grpc_client)
    finally:
        for made in (rest, grpc_client):
            if made is not None:
                made.close()
        stop(server)
    token_server(arguments.binary, "memory")
    return report(f"Deliveries conformance ({arguments.store.split(':')[0]} store)",
                  "Google's DeliveryServiceClient, unmodified, over REST and gRPC")


if __name__ == "__main__":
    sys.exit(main())
