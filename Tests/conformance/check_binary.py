#!/usr/bin/env python3
"""Checks FleetModel's binary protobuf against Google's own Fleet Engine types (PyPI `google-maps-fleetengine`
and `google-maps-fleetengine-delivery`; messages named as in check_models.py).

Three steps, driven by run.sh after the JSON steps of check_models.py:

  check-swift --dir DIR
      Every <Message>.<variant>.bin the Swift tests wrote must parse with Google's `Type.deserialize`, and
      Google's JSON of it must say the same as the <Message>.<variant>.json the Swift side wrote for the same
      sample (after dropping proto3 default values, which Google leaves out). Every message type must have
      files. A field written under the wrong number or wire type fails here: Google's parser either rejects
      it or drops it as unknown, and the JSON then differs.

  write-google --out DIR
      Writes Google-built messages (extreme values, every oneof member, every enum value, an unknown enum
      number; see check_models.fill) as <Message>.<variant>.bin with Google's `Type.serialize`, beside
      Google's JSON of each as <Message>.<variant>.json, and an empty message as <Message>.empty.bin.

  compare --google-dir DIR --reencoded-dir DIR
      The Swift tests decoded each Google .bin and wrote their JSON (.json) and their own binary
      re-encoding (.bin) of it; both must mean what Google's original means.

Exit status 1 on any mismatch, with one line per problem.
"""

from __future__ import annotations

import json
import os
import sys

from google.protobuf import unknown_fields

from check_models import VARIANTS, all_message_names, difference, fill, normalize, proto_type, run_steps, same, to_json


def split_name(file_name: str, extension: str) -> tuple[str, str]:
    stem = file_name[: -len(extension)]
    message, _, label = stem.rpartition(".")
    return message, label


def google_json(cls, obj) -> dict:
    return normalize(json.loads(to_json(cls, obj)), cls.pb().DESCRIPTOR)


def check_swift(directory: str) -> list[str]:
    problems = []
    files = sorted(f for f in os.listdir(directory) if f.endswith(".bin"))
    if not files:
        return [f"no Swift binary samples in {directory}"]
    names = set()
    for file_name in files:
        message, _ = split_name(file_name, ".bin")
        names.add(message)
        cls = proto_type(message)
        with open(os.path.join(directory, file_name), "rb") as handle:
            data = handle.read()
        try:
            obj = cls.deserialize(data)
        except Exception as error:  # noqa: BLE001 - any failure is a finding
            problems.append(f"{file_name}: Google's parser rejected it: {error}")
            continue
        unknown = unknown_fields.UnknownFieldSet(cls.pb(obj))
        if len(unknown):
            problems.append(f"{file_name}: Google found fields it does not know: {[field.field_number for field in unknown]}")
        with open(os.path.join(directory, file_name[: -len(".bin")] + ".json"), encoding="utf-8") as handle:
            ours = normalize(json.load(handle), cls.pb().DESCRIPTOR)
        googles = google_json(cls, obj)
        if not same(ours, googles):
            problems.append(f"{file_name}: Google reads the bytes differently from the Swift JSON: {difference(ours, googles)}")
    missing = set(all_message_names()) - names
    if missing:
        problems.append(f"message types without Swift binary samples: {', '.join(sorted(missing))}")
    print(f"check-swift: {len(files)} Swift binary files parsed by Google's types", file=sys.stderr)
    return problems


def write_google(directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    count = 0
    for name in all_message_names():
        cls = proto_type(name)
        samples = {}
        for variant in range(VARIANTS):
            pb = cls.pb()()
            fill(pb, pb.DESCRIPTOR, variant)
            samples[str(variant)] = cls.wrap(pb)
        samples["empty"] = cls()
        for label, obj in samples.items():
            with open(os.path.join(directory, f"{name}.{label}.bin"), "wb") as handle:
                handle.write(cls.serialize(obj))
            with open(os.path.join(directory, f"{name}.{label}.json"), "w", encoding="utf-8") as handle:
                handle.write(to_json(cls, obj))
            count += 1
    print(f"write-google: {count} binary messages written by Google's types to {directory}", file=sys.stderr)
    return []


def compare(google_dir: str, reencoded_dir: str) -> list[str]:
    problems = []
    files = sorted(f for f in os.listdir(google_dir) if f.endswith(".bin"))
    for file_name in files:
        message, _ = split_name(file_name, ".bin")
        cls = proto_type(message)
        desc = cls.pb().DESCRIPTOR
        with open(os.path.join(google_dir, file_name), "rb") as handle:
            googles = google_json(cls, cls.deserialize(handle.read()))
        stem = file_name[: -len(".bin")]
        json_path = os.path.join(reencoded_dir, stem + ".json")
        bin_path = os.path.join(reencoded_dir, file_name)
        if not (os.path.exists(json_path) and os.path.exists(bin_path)):
            problems.append(f"{file_name}: the Swift side wrote no decoding of it")
            continue
        with open(json_path, encoding="utf-8") as handle:
            ours = normalize(json.load(handle), desc)
        if not same(ours, googles):
            problems.append(f"{file_name}: the Swift decoding means something else: {difference(ours, googles)}")
        with open(bin_path, "rb") as handle:
            data = handle.read()
        try:
            reencoded = google_json(cls, cls.deserialize(data))
        except Exception as error:  # noqa: BLE001
            problems.append(f"{file_name}: Google's parser rejected the Swift re-encoding: {error}")
            continue
        if not same(reencoded, googles):
            problems.append(f"{file_name}: the Swift re-encoding means something else: {difference(reencoded, googles)}")
    print(f"compare: {len(files)} Google binary messages checked against their Swift decoding and re-encoding", file=sys.stderr)
    return problems


if __name__ == "__main__":
    sys.exit(run_steps(__doc__, check_swift, write_google, compare, "--dir", label="binary "))
