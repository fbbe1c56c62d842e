#!/usr/bin/env python3
"""Checks FleetModel's JSON against Google's own Fleet Engine types (PyPI `google-maps-fleetengine` for
Mobility's `maps.fleetengine.v1`, `google-maps-fleetengine-delivery` for `maps.fleetengine.delivery.v1`).

Messages are named relative to `maps.fleetengine`, with Mobility's `v1.` left out: `Vehicle.VehicleType`,
`delivery.v1.Task`; and `google.geo.type.Viewport`.

Three steps, driven by run.sh:

  check-swift --swift-dir DIR
      Every <Message>.<variant>.json the Swift tests wrote must parse with Google's
      `Type.from_json(text, ignore_unknown_fields=False)`, and Google's re-serialization of it must say the
      same (after dropping proto3 default values, which Google leaves out). Together the files must set
      every field of every message and use every value of every enum. The <Message>.<variant>-ints.json
      files (the same samples written for `$alt=json;enum-encoding=int`) must hold every enum as a number.

  write-google --out DIR
      Writes Google-built messages (extreme values, every oneof member, every enum value, an unknown enum
      number) as <Message>.<variant>-<encoding>.json with Google's `Type.to_json`, in four encodings:
      camelCase with enum names, enum numbers, proto (snake_case) field names, and an empty message with
      every default printed.

  compare --google-dir DIR --reencoded-dir DIR
      The Swift tests decoded each Google file and wrote their re-encoding; each must parse strictly with
      Google's type and mean the same as Google's original, and be written the way Google writes it.

Exit status 1 on any mismatch, with one line per problem.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import struct
import sys

from google.geo.type.types import viewport as viewport_types
from google.maps import fleetengine_delivery_v1 as delivery
from google.maps import fleetengine_v1 as fe
from google.protobuf import descriptor as pbd

# Each Python package with the prefix of its messages' relative names and its proto package.
PACKAGES = [(fe, "", "maps.fleetengine.v1"), (delivery, "delivery.v1.", "maps.fleetengine.delivery.v1")]
FD = pbd.FieldDescriptor
# Well-known types whose JSON is a scalar, compared as written.
SCALAR_MESSAGES = {
    "google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask",
    "google.protobuf.Int32Value", "google.protobuf.DoubleValue", "google.protobuf.BoolValue",
}
VARIANTS = 9


# MARK: - Types


def proto_type(name: str):
    """The proto-plus class for a relative name (`Vehicle.VehicleType`, `delivery.v1.Task`)."""
    if name == "google.geo.type.Viewport":
        return viewport_types.Viewport
    module, prefix, _ = next(p for p in reversed(PACKAGES) if name.startswith(p[1]))
    found = module
    for part in name[len(prefix):].split("."):
        found = getattr(found, part)
    return found


def all_message_names() -> list[str]:
    """Every Fleet Engine message of both packages (nested included) plus Viewport, as relative names."""
    names = []
    for module, prefix, package in PACKAGES:
        files = {}
        for attribute in dir(module):
            value = getattr(module, attribute)
            if isinstance(value, type) and hasattr(value, "pb") and hasattr(value, "meta"):
                try:
                    files[value.pb().DESCRIPTOR.file.name] = value.pb().DESCRIPTOR.file
                except Exception:  # noqa: BLE001 - enums and helpers have no descriptor
                    pass

        def visit(d: pbd.Descriptor) -> None:
            names.append(prefix + d.full_name[len(package) + 1:])
            for nested in d.nested_types:
                visit(nested)

        for file in files.values():
            if file.package == package:
                for d in file.message_types_by_name.values():
                    visit(d)
    return sorted(names) + ["google.geo.type.Viewport"]


def all_enums() -> dict[str, pbd.EnumDescriptor]:
    enums = {}
    for name in all_message_names():
        d = proto_type(name).pb().DESCRIPTOR
        for e in d.enum_types:
            enums[e.full_name] = e
        for fd in d.fields:
            if fd.enum_type is not None:
                enums[fd.enum_type.full_name] = fd.enum_type
    return enums


def to_json(cls, obj, **options) -> str:
    settings = dict(use_integers_for_enums=False, always_print_fields_with_no_presence=False, indent=None)
    settings.update(options)
    return cls.to_json(obj, **settings)


# MARK: - Normalization


def float32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def enum_name(fd: pbd.FieldDescriptor, value):
    if isinstance(value, int):
        known = fd.enum_type.values_by_number.get(value)
        return known.name if known else value
    return value


def is_default(fd: pbd.FieldDescriptor, value) -> bool:
    if fd.type == FD.TYPE_ENUM:
        return enum_name(fd, value) == fd.enum_type.values[0].name
    if fd.type in (FD.TYPE_STRING, FD.TYPE_BYTES):
        return value == "" or value == b""
    if fd.type == FD.TYPE_BOOL:
        return value is False
    if fd.type in (FD.TYPE_INT64, FD.TYPE_UINT64):
        return int(value) == 0
    if isinstance(value, (int, float)):
        return value == 0
    return False


def normalize_value(fd: pbd.FieldDescriptor, value):
    if fd.type == FD.TYPE_MESSAGE and fd.message_type.full_name not in SCALAR_MESSAGES:
        return normalize(value, fd.message_type)
    if fd.type == FD.TYPE_ENUM:
        return enum_name(fd, value)
    if fd.type == FD.TYPE_FLOAT and isinstance(value, (int, float)):
        return float32(float(value))
    if fd.type == FD.TYPE_DOUBLE and isinstance(value, (int, float)):
        return float(value)
    return value


def normalize(value: dict, desc: pbd.Descriptor) -> dict:
    """A message's JSON with canonical field names and without proto3 default values."""
    by_json = {f.json_name: f for f in desc.fields}
    out = {}
    for key, item in value.items():
        fd = by_json.get(key) or desc.fields_by_name.get(key)
        if fd is None:
            raise ValueError(f"unknown field {key!r} in {desc.full_name}")
        if item is None:
            continue
        if fd.is_repeated:
            if item:
                out[fd.json_name] = [normalize_value(fd, element) for element in item]
        elif fd.has_presence or not is_default(fd, item):
            out[fd.json_name] = normalize_value(fd, item)
    return out


def same(a, b) -> bool:
    """Equality of parsed JSON where NaN equals NaN, ints equal floats of the same value, and bools are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return (math.isnan(a) and math.isnan(b)) if isinstance(a, float) and math.isnan(a) else a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def difference(a, b, path="") -> str:
    """The first place where two normalized documents differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a:
                return f"{path}.{key}: missing on the left, right has {json.dumps(b[key])[:80]}"
            if key not in b:
                return f"{path}.{key}: missing on the right, left has {json.dumps(a[key])[:80]}"
            if not same(a[key], b[key]):
                return difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            if not same(x, y):
                return difference(x, y, f"{path}[{index}]")
    return f"{path or '.'}: {json.dumps(a)[:120]} != {json.dumps(b)[:120]}"


# MARK: - Coverage


class Coverage:
    def __init__(self) -> None:
        self.enum_values: dict[str, set[str]] = {}
        self.fields: dict[str, set[str]] = {}

    def walk(self, value: dict, desc: pbd.Descriptor) -> None:
        by_json = {f.json_name: f for f in desc.fields}
        for key, item in value.items():
            fd = by_json.get(key) or desc.fields_by_name[key]
            self.fields.setdefault(desc.full_name, set()).add(fd.json_name)
            for element in (item if fd.is_repeated else [item]):
                if fd.type == FD.TYPE_ENUM:
                    self.enum_values.setdefault(fd.enum_type.full_name, set()).add(str(enum_name(fd, element)))
                elif fd.type == FD.TYPE_MESSAGE and fd.message_type.full_name not in SCALAR_MESSAGES:
                    self.walk(element, fd.message_type)

    def problems(self) -> list[str]:
        found = []
        for full_name, enum in sorted(all_enums().items()):
            missing = [v.name for v in enum.values if v.name not in self.enum_values.get(full_name, set())]
            if missing:
                found.append(f"enum {full_name}: values never used by the Swift samples: {', '.join(missing)}")
        for name in all_message_names():
            desc = proto_type(name).pb().DESCRIPTOR
            missing = [f.json_name for f in desc.fields if f.json_name not in self.fields.get(desc.full_name, set())]
            if missing:
                found.append(f"message {desc.full_name}: fields never set by the Swift samples: {', '.join(missing)}")
        return found


# MARK: - Steps


def enum_names_left(value: dict, desc: pbd.Descriptor, path: str = "") -> list[str]:
    """The paths of enum values written as names (strings) in a message's JSON."""
    by_json = {f.json_name: f for f in desc.fields}
    found = []
    for key, item in value.items():
        fd = by_json.get(key) or desc.fields_by_name[key]
        for element in (item if fd.is_repeated else [item]):
            if fd.type == FD.TYPE_ENUM and isinstance(element, str):
                found.append(f"{path}{key}={element}")
            elif fd.type == FD.TYPE_MESSAGE and fd.message_type.full_name not in SCALAR_MESSAGES:
                found += enum_names_left(element, fd.message_type, f"{path}{key}.")
    return found


def split_name(file_name: str) -> tuple[str, str]:
    stem = file_name[: -len(".json")]
    message, _, label = stem.rpartition(".")
    return message, label


def check_swift(directory: str) -> list[str]:
    problems = []
    coverage = Coverage()
    files = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    if not files:
        return [f"no Swift samples in {directory}"]
    names = set()
    for file_name in files:
        message, _ = split_name(file_name)
        names.add(message)
        with open(os.path.join(directory, file_name), encoding="utf-8") as handle:
            text = handle.read()
        try:
            cls = proto_type(message)
            obj = cls.from_json(text, ignore_unknown_fields=False)
        except Exception as error:  # noqa: BLE001 - any failure is a finding
            problems.append(f"{file_name}: Google's parser rejected it: {error}")
            continue
        desc = cls.pb().DESCRIPTOR
        ours = normalize(json.loads(text), desc)
        googles = normalize(json.loads(to_json(cls, obj)), desc)
        if not same(ours, googles):
            problems.append(f"{file_name}: Google reads it differently: {difference(ours, googles)}")
        coverage.walk(json.loads(text), desc)
        if file_name.endswith("-ints.json"):
            named = enum_names_left(json.loads(text), desc)
            if named:
                problems.append(f"{file_name}: enums written by name although numbers were asked for: {', '.join(named[:5])}")
    missing_types = set(all_message_names()) - names
    if missing_types:
        problems.append(f"message types without Swift samples: {', '.join(sorted(missing_types))}")
    problems += coverage.problems()
    print(f"check-swift: {len(files)} Swift files parsed by Google's types", file=sys.stderr)
    return problems


# Google-side sample values: extremes Swift's own samples do not use.
STRINGS = ["plain", "", "ünïcödé 😀 \u2028 \"q\" \\ \x01\x1f /", "x" * 300, "日本語テキスト"]
INT32S = [1, 0, -1, 2147483647, -2147483648, 42]
INT64S = [9223372036854775807, 0, -9223372036854775808, 9007199254740993, 1]
DOUBLES = [0.1, 0.0, -0.0, 1e-300, 1.7976931348623157e308, -123.456, math.inf, -math.inf, 5e-324, math.nan]
# Not FLT_MAX: Google's Python writes it as 3.4028235e+38 and then cannot parse that back ("Float value
# too large"); FleetModel accepts it (the Swift unit tests check that).
FLOATS = [0.1, 0.0, 3.0e38, 1.401298464324817e-45, -2.5, math.inf, math.nan]
TIMESTAMPS = [(1714566600, 120000000), (-62135596800, 0), (253402300799, 999999999), (0, 1), (-1, 123456000), (1, 100)]
DURATIONS = [(12, 500000000), (0, 0), (315576000000, 0), (-315576000000, -999999999), (0, -1), (-3, 0), (1, 1000)]
LATLNGS = [(37.4219983, -122.084), (-90.0, 180.0), (90.0, -180.0), (0.0, 0.0)]
BYTES = [b"\x00\x01\xfe\xff", b"", b"plain text", bytes(range(256)), b"\xfb\xff\xbf", b"a", b"ab"]
UNKNOWN_ENUM_NUMBER = 99


def fill(message, desc: pbd.Descriptor, variant: int, depth: int = 0) -> None:
    chosen = {od.name: od.fields[variant % len(od.fields)] for od in desc.oneofs}
    for index, fd in enumerate(desc.fields):
        if fd.containing_oneof is not None and chosen[fd.containing_oneof.name] is not fd:
            continue
        if fd.is_repeated:
            container = getattr(message, fd.name)
            for offset in range(2):
                if fd.type == FD.TYPE_MESSAGE:
                    fill_message(container.add(), fd.message_type, variant + offset, depth)
                else:
                    container.append(scalar(fd, variant + offset, index))
        elif fd.type == FD.TYPE_MESSAGE:
            fill_message(getattr(message, fd.name), fd.message_type, variant, depth)
        else:
            setattr(message, fd.name, scalar(fd, variant, index))


def fill_message(sub, desc: pbd.Descriptor, variant: int, depth: int) -> None:
    sub.SetInParent()
    name = desc.full_name
    if name == "google.protobuf.Timestamp":
        sub.seconds, sub.nanos = TIMESTAMPS[variant % len(TIMESTAMPS)]
    elif name == "google.protobuf.Duration":
        sub.seconds, sub.nanos = DURATIONS[variant % len(DURATIONS)]
    elif name == "google.protobuf.FieldMask":
        sub.paths.extend(["vehicle_state", "last_location.location", "current_route_segment_end_point"][: 1 + variant % 3])
    elif name in ("google.protobuf.Int32Value", "google.protobuf.DoubleValue", "google.protobuf.BoolValue"):
        sub.value = scalar(desc.fields_by_name["value"], variant, 0)
    elif name == "google.type.LatLng":
        sub.latitude, sub.longitude = LATLNGS[variant % len(LATLNGS)]
    else:
        fill(sub, desc, variant, depth + 1)


def scalar(fd: pbd.FieldDescriptor, variant: int, index: int):
    kind = fd.type
    if kind == FD.TYPE_STRING:
        return STRINGS[(variant + index) % len(STRINGS)]
    if kind == FD.TYPE_BYTES:
        return BYTES[(variant + index) % len(BYTES)]
    if kind == FD.TYPE_BOOL:
        return (variant + index) % 2 == 0
    if kind == FD.TYPE_INT32:
        return INT32S[(variant + index) % len(INT32S)]
    if kind in (FD.TYPE_INT64,):
        return INT64S[(variant + index) % len(INT64S)]
    if kind == FD.TYPE_DOUBLE:
        return DOUBLES[(variant + index) % len(DOUBLES)]
    if kind == FD.TYPE_FLOAT:
        return FLOATS[(variant + index) % len(FLOATS)]
    if kind == FD.TYPE_ENUM:
        values = fd.enum_type.values
        if variant == VARIANTS - 1 and not fd.is_repeated:
            return UNKNOWN_ENUM_NUMBER
        return values[(variant + index) % len(values)].number
    raise ValueError(f"no sample value for {fd.full_name}")


def write_google(directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    count = 0
    for name in all_message_names():
        cls = proto_type(name)
        for variant in range(VARIANTS):
            pb = cls.pb()()
            fill(pb, pb.DESCRIPTOR, variant)
            obj = cls.wrap(pb)
            encodings = {
                "names": to_json(cls, obj),
                "ints": to_json(cls, obj, use_integers_for_enums=True),
                "snake": to_json(cls, obj, preserving_proto_field_name=True, indent=2),
            }
            for label, text in encodings.items():
                with open(os.path.join(directory, f"{name}.{variant}-{label}.json"), "w", encoding="utf-8") as handle:
                    handle.write(text)
                count += 1
        empty = to_json(cls, cls(), always_print_fields_with_no_presence=True)
        with open(os.path.join(directory, f"{name}.empty-defaults.json"), "w", encoding="utf-8") as handle:
            handle.write(empty)
        count += 1
    print(f"write-google: {count} files written by Google's types to {directory}", file=sys.stderr)
    return []


def compare(google_dir: str, reencoded_dir: str) -> list[str]:
    problems = []
    files = sorted(f for f in os.listdir(google_dir) if f.endswith(".json"))
    for file_name in files:
        message, _ = split_name(file_name)
        cls = proto_type(message)
        desc = cls.pb().DESCRIPTOR
        path = os.path.join(reencoded_dir, file_name)
        if not os.path.exists(path):
            problems.append(f"{file_name}: the Swift side wrote no re-encoding")
            continue
        with open(os.path.join(google_dir, file_name), encoding="utf-8") as handle:
            original = cls.from_json(handle.read(), ignore_unknown_fields=False)
        with open(path, encoding="utf-8") as handle:
            ours_text = handle.read()
        try:
            ours = cls.from_json(ours_text, ignore_unknown_fields=False)
        except Exception as error:  # noqa: BLE001
            problems.append(f"{file_name}: Google's parser rejected the Swift re-encoding: {error}")
            continue
        googles = normalize(json.loads(to_json(cls, original)), desc)
        if not same(normalize(json.loads(to_json(cls, ours)), desc), googles):
            problems.append(f"{file_name}: the Swift re-encoding means something else: "
                            f"{difference(normalize(json.loads(to_json(cls, ours)), desc), googles)}")
        elif not same(normalize(json.loads(ours_text), desc), googles):
            problems.append(f"{file_name}: the Swift re-encoding is not written as Google writes it: "
                            f"{difference(normalize(json.loads(ours_text), desc), googles)}")
    print(f"compare: {len(files)} Google files checked against their Swift re-encoding", file=sys.stderr)
    return problems


def run_steps(doc, check_swift_step, write_google_step, compare_step, swift_dir_option, label="") -> int:
    """The three steps run.sh drives, as subcommands: check-swift, write-google and compare. Prints each
    problem as a MISMATCH line and exits 1 when there is any."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = parser.add_subparsers(dest="step", required=True)
    check = steps.add_parser("check-swift")
    check.add_argument(swift_dir_option, dest="swift_dir", required=True)
    write = steps.add_parser("write-google")
    write.add_argument("--out", required=True)
    comparison = steps.add_parser("compare")
    comparison.add_argument("--google-dir", required=True)
    comparison.add_argument("--reencoded-dir", required=True)
    arguments = parser.parse_args()

    if arguments.step == "check-swift":
        problems = check_swift_step(arguments.swift_dir)
    elif arguments.step == "write-google":
        problems = write_google_step(arguments.out)
    else:
        problems = compare_step(arguments.google_dir, arguments.reencoded_dir)
    for problem in problems:
        print(f"MISMATCH {problem}")
    print(f"{label}{arguments.step}: {'FAILED with ' + str(len(problems)) + ' problem(s)' if problems else 'ok'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(run_steps(__doc__, check_swift, write_google, compare, "--swift-dir"))
