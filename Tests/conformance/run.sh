#!/usr/bin/env bash
# Conformance: FleetModel's JSON and binary protobuf against Google's own Fleet Engine types (PyPI
# google-maps-fleetengine for Mobility, google-maps-fleetengine-delivery for Deliveries).
#
#   Tests/conformance/run.sh [VENV] [--package-path PATH] [--work-dir DIR]
#
#   VENV            Python venv to create or reuse (default: <package>/.build/conformance-venv).
#   --package-path  the Swift package whose FleetModelTests to run (default: $SWIFT_PACKAGE_PATH, else the
#                   repository root); lets a dev package that links these folders run it.
#   --work-dir      where the JSON files go (default: a fresh temporary folder, removed unless KEEP=1).
#   FLEETENGINE_PY_VERSION  the google-maps-fleetengine version to check against (default 0.6.1, the one
#                   the models were generated from; set another to look for drift).
#   FLEETENGINE_DELIVERY_PY_VERSION  the same for google-maps-fleetengine-delivery (default 0.6.1).
#
# Steps: (1) the Swift tests write fully populated samples, in JSON and in binary protobuf; (2) Google's types
# must parse each JSON sample strictly and read it the same way, and the samples must cover every field and
# enum value; (3) Google's types write their own samples; (4) the Swift tests decode each strictly and
# re-encode it; (5) Google's types must read each re-encoding as the original. Steps 3, 4, 6 and 7 do the same for
# the binary form (check_binary.py): Google parses our bytes to the same JSON as ours, and our decoding of
# Google's bytes means the same as Google's, as does our re-encoding. Exits non-zero on any mismatch.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="${SWIFT_PACKAGE_PATH:-$(cd "$here/../.." && pwd)}"
venv=""
work=""
while [ $# -gt 0 ]; do
    case "$1" in
        --package-path) package="$2"; shift 2 ;;
        --package-path=*) package="${1#*=}"; shift ;;
        --work-dir) work="$2"; shift 2 ;;
        --work-dir=*) work="${1#*=}"; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) venv="$1"; shift ;;
    esac
done
venv="${venv:-$package/.build/conformance-venv}"

if [ ! -x "$venv/bin/python" ]; then
    echo "== creating venv $venv"
    python3 -m venv "$venv"
fi
for wanted in "google-maps-fleetengine==${FLEETENGINE_PY_VERSION:-0.6.1}" \
              "google-maps-fleetengine-delivery==${FLEETENGINE_DELIVERY_PY_VERSION:-0.6.1}"; do
    installed="$("$venv/bin/python" -c "from importlib import metadata; print(metadata.version('${wanted%%==*}'))" 2>/dev/null || true)"
    if [ "$installed" != "${wanted#*==}" ]; then
        echo "== installing $wanted into $venv"
        "$venv/bin/pip" install --quiet "$wanted"
    fi
done
python="$venv/bin/python"

if [ -z "$work" ]; then
    work="$(mktemp -d "${TMPDIR:-/tmp}/fleet-conformance.XXXXXX")"
    [ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work/swift" "$work/google" "$work/reencoded" "$work/swift-binary" "$work/google-binary" "$work/reencoded-binary"
mkdir -p "$work"
echo "== files in $work"

echo "== 1. Swift writes its samples"
FLEET_CONFORMANCE_DIR="$work/swift" FLEET_CONFORMANCE_BINARY_DIR="$work/swift-binary" swift test --package-path "$package" --filter 'FleetModelTests.ConformanceTests'

echo "== 2. Google's types read the Swift samples"
"$python" "$here/check_models.py" check-swift --swift-dir "$work/swift"

echo "== 3. Google's types write their samples"
"$python" "$here/check_models.py" write-google --out "$work/google"
"$python" "$here/check_binary.py" write-google --out "$work/google-binary"

echo "== 4. Swift decodes Google's samples and re-encodes them"
FLEET_CONFORMANCE_GOOGLE_DIR="$work/google" FLEET_CONFORMANCE_REENCODED_DIR="$work/reencoded" \
FLEET_CONFORMANCE_GOOGLE_BINARY_DIR="$work/google-binary" FLEET_CONFORMANCE_REENCODED_BINARY_DIR="$work/reencoded-binary" \
    swift test --package-path "$package" --filter 'FleetModelTests.ConformanceTests'

echo "== 5. Google's types compare the re-encodings with their originals"
"$python" "$here/check_models.py" compare --google-dir "$work/google" --reencoded-dir "$work/reencoded"

echo "== 6. Google's types read the Swift binary samples"
"$python" "$here/check_binary.py" check-swift --dir "$work/swift-binary"

echo "== 7. Google's types compare the Swift decodings of their binary samples (step 4) with their originals"
"$python" "$here/check_binary.py" compare --google-dir "$work/google-binary" --reencoded-dir "$work/reencoded-binary"

echo "conformance: ok"
