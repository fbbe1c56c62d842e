// The rider's page: one trip, live from its :watch stream (GetTrip polling while the stream is
// down). The vehicle glides along the route between updates and the camera follows it and its next
// stop until the rider pans or zooms; status, ETAs, distance and the age of the car's location are
// real text in the panel.
'use strict';
(function () {
  const F = FleetMap, C = F.config;
  const tripPath = '/v1/providers/' + F.enc(C.provider) + '/trips/' + F.enc(C.tripId);
  const view = '?view=JOURNEY_SHARING_V1S';
  const m = F.createMap();
  const map = m.map;

  const STATUS = {
    NEW: 'Finding your driver', ENROUTE_TO_PICKUP: 'Driver on the way', ARRIVED_AT_PICKUP: 'Driver has arrived',
    ARRIVED_AT_INTERMEDIATE_DESTINATION: 'At a stop', ENROUTE_TO_INTERMEDIATE_DESTINATION: 'On the way to a stop',
    ENROUTE_TO_DROPOFF: 'On the way to your destination', COMPLETE: 'Trip complete', CANCELED: 'Trip cancelled',
  };
  const TRAFFIC = { NORMAL: '#0b57d0', SLOW: '#e37400', TRAFFIC_JAM: '#c5221f' };
  const BEFORE_PICKUP = ['NEW', 'ENROUTE_TO_PICKUP', 'ARRIVED_AT_PICKUP'];

  let trip = null;
  let line = null;            // the route measured, when the trip has one
  let routeKey = '';
  let vehicle = null;         // { marker, shown: LatLng, heading, target, animation }
  let lastFix = null;         // the last reported location (VehicleLocation)
  const layers = { route: L.layerGroup(), stops: L.layerGroup() };
  m.whenViewed(() => { layers.route.addTo(map); layers.stops.addTo(map); });

  // The camera follows the car and its next stop until the rider moves the map.
  const camera = F.camera(m, 'Follow the car');

  // The stop the car drives to next: the first remaining waypoint (another rider's too, on a shared
  // ride), else this trip's pickup or drop-off by its status.
  function nextStop(t) {
    const next = (t.remainingWaypoints || []).map(w => F.latLng(w.location && w.location.point)).find(Boolean);
    if (next) return next;
    const status = t.tripStatus || 'NEW';
    if (status === 'COMPLETE' || status === 'CANCELED') return null;
    return F.latLng(((BEFORE_PICKUP.includes(status) ? t.pickupPoint : t.dropoffPoint) || {}).point);
  }

  function stopIcon(kind, label) {
    return L.divIcon({ className: 'stop-icon ' + kind, html: F.textNode('span', label), iconSize: [22, 22], iconAnchor: [11, 11] });
  }

  function drawStops(t) {
    layers.stops.clearLayers();
    const add = (p, kind, label, title) => {
      const at = F.latLng(p && p.point);
      if (at) L.marker(at, { icon: stopIcon(kind, label), title: title, keyboard: false, alt: title }).addTo(layers.stops);
    };
    add(t.pickupPoint, 'pickup', 'P', 'Pickup');
    (t.intermediateDestinations || []).forEach((d, i) => add(d, 'intermediate', String(i + 1), 'Stop ' + (i + 1)));
    add(t.dropoffPoint, 'dropoff', 'D', 'Drop-off');
    // A shared ride: the other riders' stops, without their trip IDs (the server removes them).
    (t.remainingWaypoints || []).filter(w => !w.tripId).forEach(w => add(w.location, 'other', '•', "Another rider's stop"));
  }

  // Where along the route this trip's remaining stops are (in order, from the vehicle on).
  function stopDistances(t, from) {
    const out = [];
    let at = from;
    for (const w of t.remainingWaypoints || []) {
      if (w.tripId !== C.tripId) continue;
      const p = F.latLng(w.location && w.location.point);
      if (!p) continue;
      const q = F.project(line, p, at);
      if (q.off < 200) { out.push(q.along); at = q.along; }
    }
    return out;
  }

  function drawRoute(t) {
    layers.route.clearLayers();
    const here = vehicle && vehicle.target;
    if (!line || !here) {
      // No route: straight, dashed lines from the car through the remaining stops.
      const pts = [here].concat((t.remainingWaypoints || []).map(w => F.latLng(w.location && w.location.point))).filter(Boolean);
      if (pts.length > 1) L.polyline(pts, { color: '#0b57d0', weight: 4, dashArray: '6 8', opacity: 0.8 }).addTo(layers.route);
      return;
    }
    const start = F.project(line, here).along;
    const stops = stopDistances(t, start);
    const activeEnd = stops.length ? stops[0] : line.length;
    const end = stops.length ? stops[stops.length - 1] : line.length;
    // The remaining route after the next stop, then the active route over it, coloured by traffic.
    if (end > activeEnd) L.polyline(F.slice(line, activeEnd, end), { color: '#5b6b7c', weight: 5, opacity: 0.75 }).addTo(layers.route);
    const intervals = ((t.currentRouteSegmentTraffic || {}).speedReadingInterval || []);
    L.polyline(F.slice(line, start, activeEnd), { color: TRAFFIC.NORMAL, weight: 6, opacity: 0.9 }).addTo(layers.route);
    for (const r of intervals) {
      const colour = TRAFFIC[r.speed];
      if (!colour || r.speed === 'NORMAL') continue;
      const a = line.along[Math.max(0, r.startPolylinePointIndex || 0)];
      const b = line.along[Math.min(line.points.length - 1, r.endPolylinePointIndex == null ? line.points.length - 1 : r.endPolylinePointIndex)];
      const from = Math.max(a, start), to = Math.min(b, activeEnd);
      if (to > from) L.polyline(F.slice(line, from, to), { color: colour, weight: 6, opacity: 0.95 }).addTo(layers.route);
    }
  }

  // MARK: the vehicle

  function vehicleIcon() {
    return L.divIcon({ className: 'vehicle-icon', html: '<div class="arrow"></div><div class="car"></div>', iconSize: [28, 28], iconAnchor: [14, 14] });
  }

  function placeVehicle(p, heading) {
    vehicle.shown = p;
    vehicle.marker.setLatLng(p);
    const arrow = vehicle.marker.getElement() && vehicle.marker.getElement().querySelector('.arrow');
    if (arrow && heading != null) arrow.style.transform = 'rotate(' + Math.round(heading) + 'deg)';
  }

  // Glides from where the car is shown to `target`: along the route when both are on it, else straight.
  function moveVehicle(target, heading, seconds) {
    if (!vehicle) {
      const marker = L.marker(target, { icon: vehicleIcon(), title: 'Car', alt: 'Car', keyboard: false, zIndexOffset: 1000 });
      vehicle = { marker: marker, shown: target, target: target, animation: null };
      m.whenViewed(() => {
        marker.addTo(map);
        const el = marker.getElement();
        el.dataset.field = 'vehicle';
        el.setAttribute('role', 'img');
        el.setAttribute('aria-label', 'The car');
        el.dataset.lat = String(vehicle.target.lat);
        el.dataset.lng = String(vehicle.target.lng);
        placeVehicle(vehicle.shown, heading);
      });
      return;
    }
    const from = vehicle.shown;
    vehicle.target = target;
    const el = vehicle.marker.getElement();
    if (el) { el.dataset.lat = String(target.lat); el.dataset.lng = String(target.lng); el.dataset.gliding = 'true'; }
    if (vehicle.animation) cancelAnimationFrame(vehicle.animation);
    let path = null;
    if (line) {
      const a = F.project(line, from), b = F.project(line, target);
      if (a.off < 30 && b.off < 30 && b.along >= a.along) path = { a: a.along, b: b.along };
    }
    const turn = heading != null ? heading : (from.distanceTo(target) > 1 ? F.bearing(from, target) : null);
    const duration = Math.max(200, Math.min(2000, seconds * 1000 * 0.9));
    const started = performance.now();
    const step = (t) => {
      const k = Math.min(1, (t - started) / duration);
      const p = path ? F.pointAt(line, path.a + (path.b - path.a) * k)
        : L.latLng(from.lat + (target.lat - from.lat) * k, from.lng + (target.lng - from.lng) * k);
      placeVehicle(p, turn);
      vehicle.animation = k < 1 ? requestAnimationFrame(step) : null;
      if (k >= 1) {
        placeVehicle(target, turn);
        const done = vehicle.marker.getElement();
        if (done) done.dataset.gliding = 'false';
      }
    };
    vehicle.animation = requestAnimationFrame(step);
  }

  // MARK: the panel

  function panel() {
    if (!trip) return;
    // Milliseconds from navigation to the first trip shown (benchmarks read it).
    if (!document.body.dataset.firstRenderMs) document.body.dataset.firstRenderMs = String(Math.round(performance.now()));
    const status = trip.tripStatus || 'NEW';
    const statusEl = F.setText('tripStatus', STATUS[status] || status);
    statusEl.dataset.status = status;
    const pickup = F.parseTime(trip.pickupTime), dropoff = F.parseTime(trip.dropoffTime);
    const age = F.locationAge(lastFix);
    const stale = age != null && age > C.staleAfterSeconds && status !== 'COMPLETE' && status !== 'CANCELED';
    // ETAs computed from a position that is getting old are only as good as it.
    const eta = ms => ms == null ? '—' : F.etaText(ms) + (stale ? ' (car not reporting)' : '');
    F.setText('pickupEta', BEFORE_PICKUP.includes(status) ? eta(pickup) : (status === 'CANCELED' ? '—' : 'Picked up'));
    F.setText('dropoffEta', status === 'COMPLETE' ? 'Arrived' : status === 'CANCELED' ? '—' : eta(dropoff));
    const next = BEFORE_PICKUP.includes(status) ? ' to pickup' : status.indexOf('INTERMEDIATE') >= 0 ? ' to the next stop' : ' to drop-off';
    F.setText('remainingDistance', trip.remainingDistanceMeters == null || status === 'COMPLETE' || status === 'CANCELED'
      ? '—' : F.distanceText(trip.remainingDistanceMeters) + next);
    const ageEl = F.field('vehicleAge');
    if (age == null) F.setText('vehicleAge', trip.vehicleId ? 'No location yet' : 'No car assigned yet');
    else F.setText('vehicleAge', stale ? 'Not updated for ' + F.ageText(age).replace(' ago', '') + ': the car may not be where it is shown'
                                       : 'Updated ' + F.ageText(age));
    ageEl.classList.toggle('stale', stale);
    ageEl.dataset.stale = String(stale);
    ageEl.dataset.ageSeconds = age == null ? '' : String(Math.round(age));
    const el = vehicle && vehicle.marker.getElement();
    if (el) { el.classList.toggle('stale', stale); el.dataset.stale = String(stale); }
  }

  // MARK: updates

  function onTrip(t) {
    const previousFix = lastFix;
    trip = t;
    const points = (t.route || []).map(F.latLng).filter(Boolean);
    const key = t.currentRouteSegmentVersion || JSON.stringify(points.length ? [points[0], points[points.length - 1], points.length] : []);
    if (points.length > 1 && key !== routeKey) { line = F.measure(points); routeKey = key; }
    if (!points.length && !(t.remainingWaypoints || []).length) { line = null; routeKey = ''; }
    lastFix = t.lastLocation || null;
    const here = F.latLng(lastFix && lastFix.location);
    if (!m.hasView) {
      const bounds = L.latLngBounds([]);
      [t.pickupPoint, t.dropoffPoint].concat(t.intermediateDestinations || []).forEach(p => { const q = F.latLng(p && p.point); if (q) bounds.extend(q); });
      if (here) bounds.extend(here);
      if (line) line.points.forEach(p => bounds.extend(p));
      m.ensureView(bounds);
    }
    if (here) {
      const moved = !previousFix || F.parseTime(previousFix.serverTime) !== F.parseTime(lastFix.serverTime) || !vehicle || !vehicle.target.equals(here);
      if (moved) {
        const since = previousFix ? ((F.parseTime(lastFix.serverTime) || 0) - (F.parseTime(previousFix.serverTime) || 0)) / 1000 : 1;
        moveVehicle(here, lastFix.heading, since > 0 ? since : 1);
      }
    } else if (vehicle) {
      vehicle.marker.remove(); vehicle = null;
    }
    drawStops(t);
    drawRoute(t);
    camera.follow(vehicle ? [vehicle.target, nextStop(t)] : []);
    panel();
  }

  F.live({
    stream: tripPath + ':watch' + view,
    onEvent: (event, data) => { if (event === 'trip') onTrip(data); },
    poll: () => F.api(tripPath + view).then(onTrip),
    pollSeconds: 5,
  });
  // Ages and "in N min" move with the clock, not only with updates.
  setInterval(panel, 1000);
})();
