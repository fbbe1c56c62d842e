// The page of one shipment, for the person waiting for it: live from the tracking ID's :watch stream
// (GetTaskTrackingInfo polling while the stream is down), as the rider's page follows its trip. The
// van and its route to the stop appear when the task's view config lets the customer see them; the
// stops before theirs, the arrival time, the distance left, the van's position age and how the
// delivery ended are real text in the panel.
'use strict';
(function () {
  const F = FleetMap, C = F.config;
  const infoPath = '/v1/providers/' + F.enc(C.provider) + '/taskTrackingInfo/' + F.enc(C.trackingId);
  const m = F.createMap();
  const map = m.map;
  const camera = F.camera(m, 'Follow the van');
  const layers = { route: L.layerGroup(), stop: L.layerGroup() };
  m.whenViewed(() => { layers.route.addTo(map); layers.stop.addTo(map); });

  let info = null;
  let van = null;            // the van's marker, while it is shown
  let stopKey = '';

  function vanIcon() {
    return L.divIcon({ className: 'vehicle-icon van', html: '<div class="arrow"></div><div class="car"></div>', iconSize: [28, 28], iconAnchor: [14, 14] });
  }

  function drawStop(at) {
    const key = at ? at.lat + ',' + at.lng : '';
    if (key === stopKey) return;
    stopKey = key;
    layers.stop.clearLayers();
    if (at) L.marker(at, { icon: L.divIcon({ className: 'stop-icon dropoff', html: F.textNode('span', '★'), iconSize: [22, 22], iconAnchor: [11, 11] }),
                           title: 'Your delivery', alt: 'Your delivery', keyboard: false }).addTo(layers.stop);
  }

  function drawRoute(points) {
    layers.route.clearLayers();
    if (points.length > 1) L.polyline(points, { color: '#0b57d0', weight: 6, opacity: 0.9 }).addTo(layers.route);
    const el = document.getElementById('map');
    el.dataset.routePoints = String(points.length > 1 ? points.length : 0);
  }

  function placeVan(here, heading) {
    if (!here) { if (van) { van.remove(); van = null; } return; }
    if (!van) {
      van = L.marker(here, { icon: vanIcon(), title: 'Van', alt: 'Van', keyboard: false, zIndexOffset: 1000 });
      m.whenViewed(() => { if (van) { van.addTo(map); decorate(here, heading); } });
      return;
    }
    van.setLatLng(here);
    decorate(here, heading);
  }
  function decorate(here, heading) {
    const el = van && van.getElement();
    if (!el) return;
    el.dataset.field = 'vehicle';
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', 'The van');
    el.dataset.lat = String(here.lat);
    el.dataset.lng = String(here.lng);
    const arrow = el.querySelector('.arrow');
    if (arrow && heading != null) arrow.style.transform = 'rotate(' + Math.round(heading) + 'deg)';
  }

  // MARK: the panel

  function statusText(i) {
    if (i.state === 'CLOSED') {
      if (i.taskOutcome === 'SUCCEEDED') return 'Delivered';
      if (i.taskOutcome === 'FAILED') return 'Could not be delivered';
      return 'Completed';
    }
    if (i.state === 'OPEN') return i.remainingStopCount != null || i.vehicleLocation || i.estimatedArrivalTime ? 'On its way' : 'Preparing';
    return i.state || '—';
  }

  function panel() {
    if (!info) return;
    if (!document.body.dataset.firstRenderMs) document.body.dataset.firstRenderMs = String(Math.round(performance.now()));
    const open = info.state === 'OPEN';
    const statusEl = F.setText('taskState', statusText(info) +
      (info.state === 'CLOSED' && info.taskOutcomeTime ? ' at ' + F.clock(F.parseTime(info.taskOutcomeTime)) : ''));
    statusEl.dataset.state = info.state || '';
    statusEl.dataset.outcome = info.taskOutcome || '';
    const age = F.locationAge(info.vehicleLocation);
    const stale = open && age != null && age > C.staleAfterSeconds;
    const arrival = F.parseTime(info.estimatedArrivalTime);
    F.setText('arrivalEta', !open ? '—' : arrival == null ? 'Not known yet' : F.etaText(arrival) + (stale ? ' (van not reporting)' : ''));
    const count = info.remainingStopCount;
    const stops = F.setText('stopsBefore', !open || count == null ? '—' : count <= 1 ? 'None: yours is next' : String(count - 1));
    stops.dataset.count = count == null ? '' : String(count);
    F.setText('remainingDistance', !open || info.remainingDrivingDistanceMeters == null ? '—' : F.distanceText(info.remainingDrivingDistanceMeters));
    const ageEl = F.setText('vehicleAge', !open ? '—' : age == null ? 'Not shown yet'
      : stale ? 'Not updated for ' + F.ageText(age).replace(' ago', '') + ': the van may not be where it is shown' : 'Updated ' + F.ageText(age));
    ageEl.classList.toggle('stale', stale);
    ageEl.dataset.stale = String(stale);
    const el = van && van.getElement();
    if (el) { el.classList.toggle('stale', stale); el.dataset.stale = String(stale); }
  }

  // MARK: updates

  function onInfo(i) {
    info = i;
    const stop = F.latLng(i.plannedLocation && i.plannedLocation.point);
    const here = F.latLng(i.vehicleLocation && i.vehicleLocation.location);
    const route = (i.routePolylinePoints || []).map(F.latLng).filter(Boolean);
    if (!m.hasView) {
      const bounds = L.latLngBounds([]);
      [stop, here].concat(route).forEach(p => { if (p) bounds.extend(p); });
      m.ensureView(bounds);
    }
    drawStop(stop);
    m.whenViewed(() => drawRoute(i.state === 'OPEN' ? route : []));
    placeVan(i.state === 'OPEN' ? here : null, i.vehicleLocation && i.vehicleLocation.heading);
    camera.follow(i.state === 'OPEN' && here ? [here, stop] : [stop]);
    panel();
  }

  F.live({
    stream: infoPath + ':watch',
    onEvent: (event, data) => { if (event === 'taskTrackingInfo') onInfo(data); },
    poll: () => F.api(infoPath).then(onInfo),
    pollSeconds: 5,
  });
  setInterval(panel, 1000);
})();
