#!/usr/bin/env python3
"""Generates the one table of API methods, and everything that lists methods, from Google's service descriptors.

Reads, from Google's PyPI packages (`google-maps-fleetengine` for TripService and VehicleService), each
service's RPCs (`gapic_metadata.json`), and each RPC's request and response types (the gRPC client's
signatures), and joins them with what this file declares once per method below (`DECLARED`): the REST rule
(Google's `google.api.http` annotation, which the Python package does not ship), whether the method only
reads, whether a journal records it, whether it may be sent twice, the resource it works on, and each
role's access. It writes:

  Core/FleetInterface/Generated/FleetMethod.swift    the table: `FleetMethod`, one case per method
  Core/FleetInterface/Generated/FleetCall.swift      `FleetCall`, one case per method with its typed request,
                                                     decoded and answered by method
  Core/FleetInterface/Generated/FleetAPI.swift       the `FleetAPI` protocol and its three forms of a write
  Core/FleetAuth/Generated/FleetMethod+Access.swift  each role's access to each method
  Plugins/Transports/FleetREST/Generated/FleetMethod+Query.swift  the query parameters a REST call binds

Run it with `make methods` (the conformance venv has the package), or with any Python that has it:

  /tmp/gvenv/bin/python Core/FleetInterface/Generator/generate.py [--check]

`--check` writes nothing and exits 1 when a generated file would change (`make methods-check`).

A method Google adds and `DECLARED` does not name stops the generator: declare it (or list it in `RETIRED`).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import typing
from dataclasses import dataclass, field, replace
from importlib import metadata

import proto  # proto-plus
from google.protobuf import descriptor as pbd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
OUTPUTS = {
    "method": os.path.join(ROOT, "Core/FleetInterface/Generated/FleetMethod.swift"),
    "call": os.path.join(ROOT, "Core/FleetInterface/Generated/FleetCall.swift"),
    "api": os.path.join(ROOT, "Core/FleetInterface/Generated/FleetAPI.swift"),
    "access": os.path.join(ROOT, "Core/FleetAuth/Generated/FleetMethod+Access.swift"),
    "query": os.path.join(ROOT, "Plugins/Transports/FleetREST/Generated/FleetMethod+Query.swift"),
}

# The services served: (PyPI distribution, Python package, services). A second service (Deliveries) is one
# more row here plus its methods in DECLARED.
SERVICES = [
    ("google-maps-fleetengine", "google.maps.fleetengine_v1", ["VehicleService", "TripService"]),
    ("google-maps-fleetengine-delivery", "google.maps.fleetengine_delivery_v1", ["DeliveryService"]),
]

ROLES = ["server", "driver", "trustedDriver", "consumer", "fleetReader"]
# ownVehicle: the vehicle the token names (`vehicleid`, or `deliveryvehicleid` for a delivery vehicle);
# ownTrip: the trip (`tripid`); ownTask: the task (`taskid`); ownTracking: the shipment (`trackingid`).
ACCESS = {"any", "denied", "ownVehicle", "ownTrip", "ownTask", "ownTracking"}

# Resource names a REST path variable binds, the FleetModel type that parses each, and the ID it yields.
NAME_TYPES = {
    "providers/*": ("ProviderName", None),
    "providers/*/vehicles/*": ("VehicleName", "vehicleID"),
    "providers/*/trips/*": ("TripName", "tripID"),
    "providers/*/billableTrips/*": ("BillableTripName", None),
    "providers/*/deliveryVehicles/*": ("DeliveryVehicleName", "deliveryVehicleID"),
    "providers/*/tasks/*": ("TaskName", "taskID"),
    "providers/*/taskTrackingInfo/*": ("TaskTrackingInfoName", "trackingID"),
}


@dataclass
class Declared:
    """What the descriptors do not say about a method, declared once."""
    service: str
    rpc: str
    doc: str
    # Google's google.api.http rule: verb, path template, body ("" none, "*" the whole request, or a field).
    http: tuple[str, str, str]
    resource: str                 # vehicle, trip, deliveryVehicle, task, taskTrackingInfo: for token scopes
    reads: bool                   # only reads (never journaled, answered at once)
    journaled: bool               # a journal records it
    idempotent: bool              # sending it twice does what sending it once does
    collection: bool              # works on many resources (List, Search)
    access: dict[str, str] | None  # role → one of ACCESS; None for an extension: as the method whose request it takes
    ids: dict[str, str] = field(default_factory=dict)  # "vehicleID"/"tripID" → request field naming it
    # Our extensions: not in Google's descriptors, so their types are declared here; no gRPC method.
    extension_request: str | None = None
    stream: bool = False


def access(server="any", driver="denied", consumer="denied", fleetReader="denied", trustedDriver=None) -> dict[str, str]:
    """A row of the matrix; a trusted driver (Deliveries) may do what a driver may unless said otherwise."""
    return {"server": server, "driver": driver, "trustedDriver": trustedDriver or driver, "consumer": consumer,
            "fleetReader": fleetReader}


READER = access(fleetReader="any")
DECLARED = [
    Declared("VehicleService", "CreateVehicle", "Creates a vehicle.", ("POST", "/v1/{parent=providers/*}/vehicles", "vehicle"),
             "vehicle", reads=False, journaled=True, idempotent=False, collection=False, access=access(), ids={"vehicleID": "vehicleId"}),
    Declared("VehicleService", "GetVehicle", "Returns a vehicle.", ("GET", "/v1/{name=providers/*/vehicles/*}", ""),
             "vehicle", reads=True, journaled=False, idempotent=True, collection=False,
             access=access(driver="ownVehicle", fleetReader="any")),
    Declared("VehicleService", "UpdateVehicle", "Writes the fields named by the update mask.",
             ("PUT", "/v1/{name=providers/*/vehicles/*}", "vehicle"),
             "vehicle", reads=False, journaled=True, idempotent=True, collection=False, access=access(driver="ownVehicle")),
    Declared("VehicleService", "UpdateVehicleAttributes", "Merges attributes into a vehicle's.",
             ("POST", "/v1/{name=providers/*/vehicles/*}:updateAttributes", "*"),
             "vehicle", reads=False, journaled=True, idempotent=True, collection=False, access=access()),
    Declared("VehicleService", "ListVehicles", "Lists a provider's vehicles, filtered and paged.",
             ("GET", "/v1/{parent=providers/*}/vehicles", ""),
             "vehicle", reads=True, journaled=False, idempotent=True, collection=True, access=READER),
    Declared("VehicleService", "SearchVehicles", "Finds vehicles that can serve a trip.",
             ("POST", "/v1/{parent=providers/*}/vehicles:search", "*"),
             "vehicle", reads=True, journaled=False, idempotent=True, collection=True, access=READER),
    Declared("VehicleService", "DeleteVehicle", "Deletes a vehicle without active trips.",
             ("DELETE", "/v1/{name=providers/*/vehicles/*}", ""),
             "vehicle", reads=False, journaled=True, idempotent=True, collection=False, access=access()),
    Declared("TripService", "CreateTrip", "Creates a trip.", ("POST", "/v1/{parent=providers/*}/trips", "trip"),
             "trip", reads=False, journaled=True, idempotent=False, collection=False, access=access(), ids={"tripID": "tripId"}),
    Declared("TripService", "GetTrip", "Returns a trip.", ("GET", "/v1/{name=providers/*/trips/*}", ""),
             "trip", reads=True, journaled=False, idempotent=True, collection=False,
             access=access(driver="ownTrip", consumer="ownTrip", fleetReader="any")),
    Declared("TripService", "UpdateTrip", "Writes the fields named by the update mask.",
             ("PUT", "/v1/{name=providers/*/trips/*}", "trip"),
             "trip", reads=False, journaled=True, idempotent=True, collection=False, access=access()),
    Declared("TripService", "SearchTrips", "Finds a vehicle's trips.", ("POST", "/v1/{parent=providers/*}/trips:search", "*"),
             "trip", reads=True, journaled=False, idempotent=True, collection=True, access=READER, ids={"vehicleID": "vehicleId"}),
    Declared("TripService", "DeleteTrip", "Deletes a trip that is not active on a vehicle.",
             ("DELETE", "/v1/{name=providers/*/trips/*}", ""),
             "trip", reads=False, journaled=True, idempotent=True, collection=False, access=access()),
    Declared("TripService", "ReportBillableTrip", "Reports a billable trip.",
             ("POST", "/v1/{name=providers/*/billableTrips/*}:report", "*"),
             "trip", reads=False, journaled=True, idempotent=False, collection=False, access=access()),
    # Our extension: a trip's changes as server-sent events, authorized as GetTrip.
    Declared("TripService", "WatchTrip", "Streams a trip's changes (our extension, REST only, server-sent events).",
             ("GET", "/v1/{name=providers/*/trips/*}:watch", ""),
             "trip", reads=True, journaled=False, idempotent=True, collection=False,
             access=None, extension_request="maps.fleetengine.v1.GetTripRequest", stream=True),

    # Deliveries (Fleet Engine's Last Mile API), as Google's IAM roles grant them: the untrusted driver
    # (`driver`, roles/fleetengine.deliveryUntrustedDriver: deliveryvehicles.get and .updateLocation) reads
    # its own delivery vehicle and updates its location; the trusted driver (deliveryTrustedDriver:
    # deliveryvehicles.create/.get/.update, tasks.create/.update) also creates its vehicle and creates and
    # updates tasks; neither may read a task (no tasks.get); the consumer (deliveryConsumer:
    # tasktrackinginfo.get) sees one shipment; the fleet reader (deliveryFleetReader) reads everything.
    Declared("DeliveryService", "CreateDeliveryVehicle", "Creates a delivery vehicle.",
             ("POST", "/v1/{parent=providers/*}/deliveryVehicles", "delivery_vehicle"),
             "deliveryVehicle", reads=False, journaled=True, idempotent=False, collection=False,
             access=access(trustedDriver="ownVehicle"), ids={"deliveryVehicleID": "deliveryVehicleId"}),
    Declared("DeliveryService", "GetDeliveryVehicle", "Returns a delivery vehicle.",
             ("GET", "/v1/{name=providers/*/deliveryVehicles/*}", ""),
             "deliveryVehicle", reads=True, journaled=False, idempotent=True, collection=False,
             access=access(driver="ownVehicle", fleetReader="any")),
    Declared("DeliveryService", "DeleteDeliveryVehicle", "Deletes a delivery vehicle that has no tasks assigned.",
             ("DELETE", "/v1/{name=providers/*/deliveryVehicles/*}", ""),
             "deliveryVehicle", reads=False, journaled=True, idempotent=True, collection=False, access=access()),
    Declared("DeliveryService", "UpdateDeliveryVehicle",
             "Writes the fields named by the update mask: location, stops (which assigns tasks), attributes.",
             ("PATCH", "/v1/{delivery_vehicle.name=providers/*/deliveryVehicles/*}", "delivery_vehicle"),
             "deliveryVehicle", reads=False, journaled=True, idempotent=True, collection=False,
             access=access(driver="ownVehicle")),
    Declared("DeliveryService", "BatchCreateTasks", "Creates up to 500 tasks at once, all or none.",
             ("POST", "/v1/{parent=providers/*}/tasks:batchCreate", "*"),
             "task", reads=False, journaled=True, idempotent=False, collection=True, access=access(trustedDriver="any")),
    Declared("DeliveryService", "CreateTask", "Creates a task.", ("POST", "/v1/{parent=providers/*}/tasks", "task"),
             "task", reads=False, journaled=True, idempotent=False, collection=False, access=access(trustedDriver="any"),
             ids={"taskID": "taskId"}),
    Declared("DeliveryService", "GetTask", "Returns a task.", ("GET", "/v1/{name=providers/*/tasks/*}", ""),
             "task", reads=True, journaled=False, idempotent=True, collection=False, access=READER),
    Declared("DeliveryService", "DeleteTask", "Deletes a task that is closed or not assigned.",
             ("DELETE", "/v1/{name=providers/*/tasks/*}", ""),
             "task", reads=False, journaled=True, idempotent=True, collection=False, access=access()),
    Declared("DeliveryService", "UpdateTask", "Writes the fields named by the update mask: outcome, time window, attributes.",
             ("PATCH", "/v1/{task.name=providers/*/tasks/*}", "task"),
             "task", reads=False, journaled=True, idempotent=True, collection=False, access=access(trustedDriver="ownTask")),
    Declared("DeliveryService", "ListTasks", "Lists a provider's tasks, filtered and paged.",
             ("GET", "/v1/{parent=providers/*}/tasks", ""),
             "task", reads=True, journaled=False, idempotent=True, collection=True, access=READER),
    Declared("DeliveryService", "GetTaskTrackingInfo", "Returns what the customer of a shipment may see.",
             ("GET", "/v1/{name=providers/*/taskTrackingInfo/*}", ""),
             "taskTrackingInfo", reads=True, journaled=False, idempotent=True, collection=False,
             access=access(consumer="ownTracking", fleetReader="any")),
    Declared("DeliveryService", "ListDeliveryVehicles", "Lists a provider's delivery vehicles, filtered and paged.",
             ("GET", "/v1/{parent=providers/*}/deliveryVehicles", ""),
             "deliveryVehicle", reads=True, journaled=False, idempotent=True, collection=True, access=READER),
    # Our extensions: a task's and a shipment's changes as server-sent events, authorized as GetTask and
    # GetTaskTrackingInfo.
    Declared("DeliveryService", "WatchTask", "Streams a task's changes (our extension, REST only, server-sent events).",
             ("GET", "/v1/{name=providers/*/tasks/*}:watch", ""),
             "task", reads=True, journaled=False, idempotent=True, collection=False,
             access=None, extension_request="maps.fleetengine.delivery.v1.GetTaskRequest", stream=True),
    Declared("DeliveryService", "WatchTaskTrackingInfo",
             "Streams what the customer of a shipment may see as it changes (our extension, REST only, server-sent events).",
             ("GET", "/v1/{name=providers/*/taskTrackingInfo/*}:watch", ""),
             "taskTrackingInfo", reads=True, journaled=False, idempotent=True, collection=False,
             access=None, extension_request="maps.fleetengine.delivery.v1.GetTaskTrackingInfoRequest", stream=True),
]

# Methods Google's services had and that are not served: a call of one is UNIMPLEMENTED, saying what to use.
RETIRED = [
    ("VehicleService", "UpdateVehicleLocation", ("PUT", "/v1/{name=providers/*/vehicles/*}:updateLocation"),
     "deprecated in Fleet Engine v1 and not served; use UpdateVehicle and SearchVehicles"),
    ("VehicleService", "SearchFuzzedVehicles", ("POST", "/v1/{parent=providers/*}/vehicles:searchFuzzed"),
     "deprecated in Fleet Engine v1 and not served; use UpdateVehicle and SearchVehicles"),
]


# MARK: - Reading the descriptors


@dataclass
class Method:
    declared: Declared
    package: str                  # proto package (maps.fleetengine.v1)
    request: pbd.Descriptor
    response: pbd.Descriptor | None  # None: google.protobuf.Empty

    @property
    def case(self) -> str:
        return self.declared.rpc[0].lower() + self.declared.rpc[1:]

    @property
    def grpc_path(self) -> str | None:
        return None if self.declared.extension_request else f"/{self.package}.{self.declared.service}/{self.declared.rpc}"

    @property
    def request_type(self) -> str:
        return swift_type(self.request.full_name)

    @property
    def response_type(self) -> str:
        return "Void" if self.response is None else swift_type(self.response.full_name)

    @property
    def path_variable(self) -> tuple[str, str]:
        """`{name=providers/*/vehicles/*}` → ("name", "providers/*/vehicles/*")."""
        template = self.declared.http[1]
        inner = template[template.index("{") + 1:template.index("}")]
        name, pattern = inner.split("=")
        return name, pattern


# FleetModel's Swift names that are not the proto's last component (Core/FleetModel/Generator/generate.py).
SWIFT_RENAMES = {"maps.fleetengine.delivery.v1.Task": "DeliveryTask"}


def swift_type(full_name: str) -> str:
    return SWIFT_RENAMES.get(full_name) or full_name.rsplit(".", 1)[1]


def message_class(annotation) -> type | None:
    """The proto-plus message in `Optional[Union[X, dict]]` or `X`; None for None (Empty)."""
    if annotation is type(None) or annotation is None:
        return None
    if isinstance(annotation, type) and issubclass(annotation, proto.Message):
        return annotation
    for argument in typing.get_args(annotation):
        found = message_class(argument)
        if found is not None:
            return found
    return None


def descriptors() -> tuple[list[Method], str]:
    """Every declared method with its types from Google's packages; the versions read."""
    declared = {(d.service, d.rpc): d for d in DECLARED}
    retired = {(service, rpc) for service, rpc, _, _ in RETIRED}
    found: dict[tuple[str, str], Method] = {}
    versions = []
    for distribution, package, services in SERVICES:
        versions.append(f"{distribution} {metadata.version(distribution)}")
        module = importlib.import_module(package)
        gapic = json.load(open(os.path.join(os.path.dirname(module.__file__), "gapic_metadata.json")))
        proto_package = gapic["protoPackage"]
        for service in services:
            client = getattr(module, f"{service}Client")
            rpcs = gapic["services"][service]["clients"]["grpc"]["rpcs"]
            for rpc, entry in rpcs.items():
                key = (service, rpc)
                if key in retired:
                    continue
                if key not in declared:
                    sys.exit(f"generate.py: {service}.{rpc} is in Google's descriptors but not declared: add it to DECLARED "
                             f"(REST rule, reads, journaled, idempotent, access) or to RETIRED")
                hints = typing.get_type_hints(getattr(client, entry["methods"][0]))
                request = message_class(hints["request"])
                response = message_class(hints["return"])
                if response is None and hints["return"] is not type(None):
                    # A paged method returns a pager over the response message it was made with.
                    response = message_class(typing.get_type_hints(hints["return"].__init__)["response"])
                found[key] = Method(declared[key], proto_package, request.pb().DESCRIPTOR,
                                    None if response is None else response.pb().DESCRIPTOR)
    methods = []
    for d in DECLARED:
        key = (d.service, d.rpc)
        if d.extension_request:
            owner = next(m for m in found.values() if m.request.full_name == d.extension_request)
            d = replace(d, access=d.access or owner.declared.access)
            methods.append(Method(d, owner.package, owner.request, None))
        elif key in found:
            methods.append(found[key])
        else:
            sys.exit(f"generate.py: {d.service}.{d.rpc} is declared but not in Google's descriptors")
    for d in (m.declared for m in methods):
        assert set(d.access) == set(ROLES) and set(d.access.values()) <= ACCESS, d.rpc
        assert d.http[0] in {"GET", "POST", "PUT", "PATCH", "DELETE"}, d.rpc
        assert not (d.reads and d.journaled), d.rpc
    for m in methods:
        assert m.path_variable[1] in NAME_TYPES, f"{m.declared.rpc}: add {m.path_variable[1]} to NAME_TYPES"
    return methods, ", ".join(versions)


# MARK: - Swift


def header(versions: str) -> str:
    return f"""\
// Generated by Core/FleetInterface/Generator/generate.py from the service descriptors in Google's
// {versions} (PyPI) and the declarations in that script. Do not edit: change the script and run
// `make methods`.
"""


def lines(items) -> str:
    return "\n".join(items)


def swift_string(text: str) -> str:
    return json.dumps(text)


def method_file(methods: list[Method]) -> str:
    services = sorted({f"{m.package}.{m.declared.service}" for m in methods if m.grpc_path})

    def switch(property_lines) -> str:
        return lines(property_lines)

    def cases_where(predicate) -> str:
        chosen = [f".{m.case}" for m in methods if predicate(m)]
        return ", ".join(chosen)

    def bool_property(name: str, doc: str, predicate) -> str:
        chosen = cases_where(predicate)
        body = f"        switch self {{\n        case {chosen}: true\n        default: false\n        }}" if chosen else "        false"
        return f"""    /// {doc}
    public var {name}: Bool {{
{body}
    }}
"""

    http_cases = lines(f'        case .{m.case}: HTTPRule(verb: "{m.declared.http[0]}", path: "{m.declared.http[1]}", body: "{m.declared.http[2]}")'
                       for m in methods)
    grpc_cases = lines(f'        case .{m.case}: {swift_string(m.grpc_path) if m.grpc_path else "nil"}' for m in methods)
    resource_cases = lines(f"        case .{m.case}: .{m.declared.resource}" for m in methods)
    retired = lines(f'        RetiredMethod(name: "{rpc}", grpcPath: "/{methods[0].package}.{service}/{rpc}", '
                    f'rest: HTTPRule(verb: "{http[0]}", path: "{http[1]}", body: ""), reason: {swift_string(reason)}),'
                    for service, rpc, http, reason in RETIRED)
    enum_cases = lines(f"""    /// `{m.declared.rpc}`: {m.declared.doc} `{m.declared.http[0]} {m.declared.http[1]}`.
    case {m.case} = "{m.declared.rpc}\"""" for m in methods)
    return f"""import FleetModel

/// Every method this product serves, one case each: the one table the REST routes, the gRPC methods, the
/// authorization matrix, the journal's names and the clients' calls come from. Google's methods come from
/// their service descriptors; `watchTrip`, `watchTask` and `watchTaskTrackingInfo` are our streaming extensions
/// (authorized like `getTrip`, `getTask` and `getTaskTrackingInfo`).
///
/// Adding a method is one declaration in `Core/FleetInterface/Generator/generate.py` and `make methods`:
/// the new `FleetAPI` requirement then fails to compile until the engine implements it
/// (docs/architecture.md, "Adding an API method").
public enum FleetMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {{
{enum_cases}

    /// The RPC name (`GetTrip`), as messages, metrics and the gRPC service write it.
    public var description: String {{ rawValue }}

    /// The gRPC services the methods belong to (`maps.fleetengine.v1.TripService`).
    public static let services: [String] = [{", ".join(swift_string(s) for s in services)}]

    /// What a method works on.
    public enum Resource: String, Sendable, Hashable, CaseIterable {{
        /// Vehicles (`providers/*/vehicles/*`).
        case vehicle
        /// Trips (`providers/*/trips/*`; billable trips count as trips).
        case trip
        /// Delivery vehicles (`providers/*/deliveryVehicles/*`).
        case deliveryVehicle
        /// Tasks (`providers/*/tasks/*`).
        case task
        /// A shipment's tracking view (`providers/*/taskTrackingInfo/*`, named by tracking ID).
        case taskTrackingInfo
    }}

    /// The kind of resource the method works on.
    public var resource: Resource {{
        switch self {{
{resource_cases}
        }}
    }}

    /// The REST rule (Google's `google.api.http` annotation; ours for the extensions).
    public var http: HTTPRule {{
        switch self {{
{http_cases}
        }}
    }}

    /// The gRPC method path (`/maps.fleetengine.v1.TripService/GetTrip`); nil for a REST-only extension.
    public var grpcPath: String? {{
        switch self {{
{grpc_cases}
        }}
    }}

{bool_property("isReadOnly", "Whether the method only reads (Get, List, Search, Watch): never journaled, answered at once.", lambda m: m.declared.reads)}
{bool_property("isJournaled", "Whether a journal (the `file:` transport) records the call: the methods that change something.", lambda m: m.declared.journaled)}
{bool_property("isIdempotent", "Whether sending the call twice has the effect of sending it once, so a client may retry it after a failure that may have reached the server. Creates and billing reports are not.", lambda m: m.declared.idempotent)}
{bool_property("readsCollection", "Whether the method works on many resources at once rather than on one named resource (List, Search).", lambda m: m.declared.collection)}
{bool_property("isStream", "Whether the method answers with a stream of messages (our `:watch`), not one response.", lambda m: m.declared.stream)}
    /// Methods Google's services had that are not served: a call of one is UNIMPLEMENTED, saying why.
    public static let retired: [RetiredMethod] = [
{retired}
    ]
}}
"""


def call_file(methods: list[Method]) -> str:
    cases = lines(f"    /// `{m.declared.rpc}`.\n    case {m.case}({m.request_type})" for m in methods)
    method_cases = lines(f"        case .{m.case}: .{m.case}" for m in methods)
    request_cases = lines(f"        case .{m.case}(let request): request" for m in methods)
    json_cases = lines(f"        case .{m.case}: self = .{m.case}(try {m.request_type}(json: json, path: path, options: options))" for m in methods)
    binary_cases = lines(f"        case .{m.case}: self = .{m.case}(try {m.request_type}(protobuf: bytes))" for m in methods)

    def respond_blocking(m: Method) -> str:
        if m.declared.stream:
            return (f"        case .{m.case}: throw FleetError(.methodNotImplemented, "
                    f"detail: \"{m.declared.rpc} is a stream ({m.declared.http[0]} {m.declared.http[1]}), not a call with one answer\")")
        if m.response is None:
            return f"        case .{m.case}(let request): try api.{m.case}(request); return .empty"
        return f"        case .{m.case}(let request): return .message(try api.{m.case}(request))"

    def respond_later(m: Method) -> str:
        if m.declared.stream or m.declared.reads:
            return f"        case .{m.case}: completion(Result {{ try respond(from: api) }})"
        wrap = ".empty" if m.response is None else ".message($0)"
        return f"        case .{m.case}(let request): api.{m.case}(request) {{ completion($0.map {{ {wrap} }}) }}"

    def name_check(m: Method) -> str:
        variable, pattern = m.path_variable
        name_type = NAME_TYPES[pattern][0]
        return (f'        case .{m.case}(let request): _ = try {name_type}(parsing: request.{swift_access(variable)} ?? "", '
                f'field: "{json_path(variable)}")')

    def resources(m: Method) -> str:
        variable, pattern = m.path_variable
        name_type, yields = NAME_TYPES[pattern]
        prop = swift_access(variable)
        extra = "".join(f", {key}: CallResources.nonEmpty(request.{value})" for key, value in m.declared.ids.items())
        if name_type == "ProviderName":
            return (f"        case .{m.case}(let request):\n"
                    f"            return CallResources(provider: (try? ProviderName(parsing: request.{prop} ?? \"\"))?.provider"
                    f" ?? CallResources.provider(in: request.{prop}){extra})")
        found = f", {yields}: name.{yields}" if yields else ""
        return (f"        case .{m.case}(let request):\n"
                f"            guard let name = try? {name_type}(parsing: request.{prop} ?? \"\") else {{ return CallResources(provider: CallResources.provider(in: request.{prop})) }}\n"
                f"            return CallResources(provider: name.provider{found}{extra})")

    return f"""import FleetErrors
import FleetModel

/// One call of the API with its typed request: what REST and gRPC decode, what the admission checks, what
/// a journal records and replays, and what a client sends.
public enum FleetCall: Sendable, Hashable {{
{cases}

    /// The method called.
    public var method: FleetMethod {{
        switch self {{
{method_cases}
        }}
    }}

    /// The request message.
    public var request: any ProtoMessage {{
        switch self {{
{request_cases}
        }}
    }}

    /// The request's proto3 JSON.
    public var requestJSON: JSON {{ request.toJSON() }}

    /// The call of `method` with its request decoded from proto3 JSON; `path` names where the request sits
    /// (for errors).
    ///
    /// - Throws: the request's decoding error (INVALID_ARGUMENT naming the field).
    public init(method: FleetMethod, json: JSON, path: String = "", options: DecodingOptions = DecodingOptions()) throws {{
        switch method {{
{json_cases}
        }}
    }}

    /// The call of `method` with its request decoded from binary protobuf (a gRPC message).
    ///
    /// - Throws: INVALID_ARGUMENT (`MALFORMED_PROTOBUF`) naming the field.
    public init(method: FleetMethod, protobuf bytes: [UInt8]) throws {{
        switch method {{
{binary_cases}
        }}
    }}

    /// Makes the call on `api` and waits for its answer.
    ///
    /// - Throws: the call's error; UNIMPLEMENTED for a stream, which has no single answer.
    public func respond(from api: any FleetAPI) throws -> FleetResponse {{
        switch self {{
{lines(respond_blocking(m) for m in methods)}
        }}
    }}

    /// Makes the call on `api` without waiting: reads complete before this returns, writes once their
    /// commit completes (on the store's writer thread, holding no thread of the caller meanwhile).
    public func respond(from api: any FleetAPI, completion: @escaping @Sendable (Result<FleetResponse, any Error>) -> Void) {{
        switch self {{
{lines(respond_later(m) for m in methods)}
        }}
    }}

    /// Checks the resource name the call's path is made of (a malformed one cannot form a REST path).
    ///
    /// - Throws: INVALID_ARGUMENT naming the field, as the engine would.
    public func checkResourceName() throws {{
        switch self {{
{lines(name_check(m) for m in methods)}
        }}
    }}

    /// The provider, vehicle and trip the call names, as far as its names say.
    public var resources: CallResources {{
        switch self {{
{lines(resources(m) for m in methods)}
        }}
    }}
}}
"""


def lower_camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(part.capitalize() for part in rest)


def json_path(variable: str) -> str:
    """`delivery_vehicle.name` → `deliveryVehicle.name`."""
    return ".".join(lower_camel(part) for part in variable.split("."))


def swift_access(variable: str) -> str:
    """The Swift expression reading a path variable from `request`: `name`, `deliveryVehicle?.name`."""
    return "?.".join(lower_camel(part) for part in variable.split("."))


def api_file(methods: list[Method]) -> str:
    unary = [m for m in methods if not m.declared.stream]
    writes = [m for m in unary if not m.declared.reads]

    def returns(m: Method) -> str:
        return "" if m.response is None else f" -> {m.response_type}"

    def result(m: Method) -> str:
        return f"Result<{m.response_type}, any Error>"

    def doc(m: Method) -> str:
        return f"{m.declared.doc} `{m.declared.http[0]} {m.declared.http[1]}`"

    requirements = lines(f"    /// {doc(m)}\n    func {m.case}(_ request: {m.request_type}) throws{returns(m)}" for m in unary)
    completions = lines(f"    /// {m.declared.rpc} without waiting: `completion` gets the outcome, on this thread or another.\n"
                        f"    func {m.case}(_ request: {m.request_type}, completion: @escaping @Sendable ({result(m)}) -> Void)"
                        for m in writes)
    blocking_defaults = lines(f"""    public func {m.case}(_ request: {m.request_type}, completion: @escaping @Sendable ({result(m)}) -> Void) {{
        BlockingCall.inBackground(completion) {{ try {m.case}(request) }}
    }}
""" for m in writes)
    non_blocking_defaults = lines(f"""    public func {m.case}(_ request: {m.request_type}) throws{returns(m)} {{
        try BlockingCall.wait {{ {m.case}(request, completion: $0) }}
    }}
""" for m in writes)
    async_forms = lines(f"""    public func {m.case}(_ request: {m.request_type}) async throws{returns(m)} {{
        try await BlockingCall.resuming {{ {m.case}(request, completion: $0) }}
    }}
""" for m in writes)

    def performed(m: Method) -> str:
        if m.response is None:
            return f"    public func {m.case}(_ request: {m.request_type}) throws {{ try perform(.{m.case}(request)) }}"
        return (f"    public func {m.case}(_ request: {m.request_type}) throws -> {m.response_type} {{\n"
                f"        try perform(.{m.case}(request), returning: {m.response_type}.self)\n    }}")

    return f"""import FleetModel

/// The calls of the API (every unary method of `FleetMethod`). Implemented by the engine and by every
/// transport's client.
///
/// Every blocking call throws `FleetError` (the gRPC code, a message naming the field or resource, and
/// the catalogue cause). Calls answering `google.protobuf.Empty` return nothing (`{{}}` over REST).
///
/// Every write also has a non-blocking form that returns at once and hands the outcome to
/// `completion`: a server answers writes this way so that none of its threads waits for a commit.
/// An implementation writes one half and adopts the protocol that gives it the other: a client over
/// the network writes the blocking calls and adopts `BlockingFleetAPI` (the blocking call on a
/// Dispatch queue), or only `perform` and adopts `FleetCallPerforming`; an implementation that commits
/// without waiting (the engine) writes the completion forms and adopts `NonBlockingFleetAPI`.
/// `FleetAPI` itself gives neither a default, so a form left out is a compile error, not two defaults
/// calling each other forever.
public protocol FleetAPI: Sendable {{
{requirements}

    // MARK: Writes without waiting

{completions}
}}

/// The non-blocking writes of an implementation that only has the blocking ones (a network client):
/// the blocking call runs on a Dispatch queue and `completion` gets its outcome there.
extension BlockingFleetAPI {{
{blocking_defaults}}}

/// The blocking writes of an implementation whose writes complete later (the engine): each waits for its
/// completion form.
extension NonBlockingFleetAPI {{
{non_blocking_defaults}}}

/// The writes for Swift concurrency, over the non-blocking forms: no thread waits while a write commits.
extension FleetAPI {{
{async_forms}}}

/// Every blocking call of an implementation that makes any call one way (`perform`): a network client,
/// a journal.
extension FleetCallPerforming {{
{lines(performed(m) for m in unary)}
}}
"""


def access_file(methods: list[Method]) -> str:
    def cell(m: Method) -> str:
        roles = "; ".join(f"case .{role}: .{m.declared.access[role]}" for role in ROLES)
        return f"        case .{m.case}:\n            switch role {{ {roles} }}"

    return f"""import FleetInterface

extension FleetMethod {{
    /// How far a token of `role` may use the method: the cell of the authorization matrix, declared
    /// beside the method in the table.
    public func access(for role: Role) -> Access {{
        switch self {{
{lines(cell(m) for m in methods)}
        }}
    }}
}}
"""


def query_fields(descriptor: pbd.Descriptor, prefix: str, depth: int, out: dict[str, set[str]]) -> None:
    """Dotted JSON paths of the leaves a query parameter may set, by kind (repeated, booleans, numbers)."""
    for f in descriptor.fields:
        path = prefix + f.json_name
        if f.is_repeated:
            out["repeated"].add(path)
        if f.type == pbd.FieldDescriptor.TYPE_BOOL:
            out["booleans"].add(path)
        elif f.type in (pbd.FieldDescriptor.TYPE_DOUBLE, pbd.FieldDescriptor.TYPE_FLOAT):
            out["numbers"].add(path)
        elif (f.type == pbd.FieldDescriptor.TYPE_MESSAGE and not f.is_repeated
              and not f.message_type.full_name.startswith("google.protobuf.") and depth < 3):
            query_fields(f.message_type, path + ".", depth + 1, out)


def query_file(methods: list[Method]) -> str:
    def binding(m: Method) -> str:
        body = m.declared.http[2]
        if body == "*":
            return f"        case .{m.case}: nil"
        body_json = lower_camel(body) if body else None
        fields = sorted(f.json_name for f in m.request.fields if f.json_name != body_json)
        kinds = {"repeated": set(), "booleans": set(), "numbers": set()}
        query_fields(m.request, "", 0, kinds)
        if body_json:
            for kind in kinds.values():
                for path in list(kind):
                    if path == body_json or path.startswith(body_json + "."):
                        kind.discard(path)

        def swift_set(values) -> str:
            return "[" + ", ".join(swift_string(v) for v in sorted(values)) + "]"

        return (f"        case .{m.case}:\n            QueryFields(fields: {swift_set(fields)},\n"
                f"                        repeated: {swift_set(kinds['repeated'])}, booleans: {swift_set(kinds['booleans'])},\n"
                f"                        numbers: {swift_set(kinds['numbers'])})")

    return f"""import FleetInterface

extension FleetMethod {{
    /// The request fields a REST call of the method takes from its query parameters (the fields outside
    /// the path and the body; JSON names, nested ones dotted), and how their text is read; nil when the
    /// whole request is the body (`body: "*"`).
    var queryFields: QueryFields? {{
        switch self {{
{lines(binding(m) for m in methods)}
        }}
    }}
}}
"""


def main() -> None:
    check = "--check" in sys.argv[1:]
    methods, versions = descriptors()
    texts = {
        "method": method_file(methods),
        "call": call_file(methods),
        "api": api_file(methods),
        "access": access_file(methods),
        "query": query_file(methods),
    }
    stale = []
    for key, body in texts.items():
        path = OUTPUTS[key]
        text = header(versions) + "\n" + body
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        stale.append(os.path.relpath(path, ROOT))
        if not check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as handle:
                handle.write(text)
    if check:
        if stale:
            print("generated method files out of date (run `make methods`): " + ", ".join(stale), file=sys.stderr)
            sys.exit(1)
        print(f"method table up to date ({len(methods)} methods)", file=sys.stderr)
    else:
        print(f"{len(methods)} methods; wrote {', '.join(stale) if stale else 'nothing (up to date)'}", file=sys.stderr)


if __name__ == "__main__":
    main()
