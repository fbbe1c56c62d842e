// The operator's page: every vehicle of the provider, live from the vehicles :watch stream
// (ListVehicles polling while it is down), coloured by state; a click or a search shows a
// vehicle's trips and route. Delivery vehicles (ListDeliveryVehicles every 5 s: they have no
// stream) are drawn as vans with their remaining stops, numbered in order (GetDeliveryVehicle of
// each, up to VAN_DETAILS of them: ListDeliveryVehicles leaves the stops out, as Google's does).
'use strict';
(function () {
  const F = FleetMap, C = F.config;
  const base = '/v1/providers/' + F.enc(C.provider);
  const m = F.createMap();
  const map = m.map;
  const vehicles = new Map();     // id → { vehicle, marker }
  let synced = false, selected = null;
  const routeLayer = L.layerGroup();
  m.whenViewed(() => routeLayer.addTo(map));

  const idOf = name => name.slice(name.lastIndexOf('/') + 1);

  // online, offline or stale (online, but its location is older than the threshold or missing).
  function stateOf(v) {
    if (v.vehicleState !== 'ONLINE') return 'offline';
    const age = F.locationAge(v.lastLocation);
    return age == null || age > C.staleAfterSeconds ? 'stale' : 'online';
  }

  function dotIcon(state, isSelected) {
    return L.divIcon({ className: 'fleet-dot ' + state + (isSelected ? ' selected' : ''), iconSize: [16, 16], iconAnchor: [8, 8] });
  }

  function render(id) {
    const entry = vehicles.get(id);
    if (!entry) return;
    const v = entry.vehicle, state = stateOf(v), at = F.latLng(v.lastLocation && v.lastLocation.location);
    const key = state + (selected === id);
    if (!at) { if (entry.marker) { entry.marker.remove(); entry.marker = null; } return; }
    if (!entry.marker) {
      entry.marker = L.marker(at, { icon: dotIcon(state, selected === id), title: id, alt: 'Vehicle ' + id, keyboard: true });
      entry.marker.on('click', () => select(id));
      entry.key = key;
      m.whenViewed(() => {
        if (!entry.marker) return;
        entry.marker.addTo(map);
        decorate(entry, id, state);
      });
      return;
    }
    entry.marker.setLatLng(at);
    if (entry.key !== key) { entry.marker.setIcon(dotIcon(state, selected === id)); entry.key = key; }
    decorate(entry, id, state);
  }
  function decorate(entry, id, state) {
    const el = entry.marker && entry.marker.getElement();
    if (!el) return;
    const at = entry.marker.getLatLng();
    el.dataset.field = 'fleetVehicle';
    el.dataset.vehicleId = id;
    el.dataset.state = state;
    el.dataset.lat = String(at.lat);
    el.dataset.lng = String(at.lng);
  }

  function list() {
    const counts = { online: 0, offline: 0, stale: 0 };
    const ids = Array.from(vehicles.keys()).sort();
    const ul = document.getElementById('vehicles');
    ul.textContent = '';
    for (const id of ids.slice(0, 300)) {
      const state = stateOf(vehicles.get(id).vehicle);
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      const badge = document.createElement('span'); badge.className = 'state ' + state; badge.textContent = state;
      button.append(badge, document.createTextNode(' ' + id));
      button.addEventListener('click', () => select(id));
      li.append(button); li.dataset.vehicleId = id; li.dataset.state = state;
      ul.append(li);
    }
    ids.forEach(id => counts[stateOf(vehicles.get(id).vehicle)]++);
    F.setText('fleetCounts', ids.length + (ids.length === 1 ? ' vehicle' : ' vehicles') + ': ' + counts.online + ' online, ' +
      counts.stale + ' stale, ' + counts.offline + ' offline');
  }

  function upsert(v) {
    const id = idOf(v.name);
    const entry = vehicles.get(id) || {};
    entry.vehicle = v;
    vehicles.set(id, entry);
    render(id);
    if (selected === id) showSelection(id, null);
  }
  function remove(name) {
    const id = idOf(name), entry = vehicles.get(id);
    if (entry && entry.marker) entry.marker.remove();
    vehicles.delete(id);
    if (selected === id) { selected = null; routeLayer.clearLayers(); document.getElementById('selection').textContent = ''; }
  }
  // The first view, once both fleets have arrived: every vehicle, van and stop.
  function fitOnce() {
    if (m.hasView || !vehiclesLoaded || !deliveriesLoaded) return;
    const bounds = L.latLngBounds([]);
    vehicles.forEach(e => { const p = F.latLng(e.vehicle.lastLocation && e.vehicle.lastLocation.location); if (p) bounds.extend(p); });
    vans.forEach(v => v.points.forEach(p => bounds.extend(p)));
    m.ensureView(bounds);
  }

  // MARK: delivery vehicles

  const vans = new Map();          // id → { marker, stops: [marker], line, points: [LatLng] }
  const vanLayer = L.layerGroup();
  m.whenViewed(() => vanLayer.addTo(map));
  let vehiclesLoaded = false, deliveriesLoaded = false;
  const VAN_DETAILS = 100;

  function vanIcon(state) {
    return L.divIcon({ className: 'fleet-van ' + state, iconSize: [18, 18], iconAnchor: [9, 9] });
  }
  function stopIcon(n) {
    return L.divIcon({ className: 'delivery-stop', html: F.textNode('span', String(n)), iconSize: [18, 18], iconAnchor: [9, 9] });
  }
  // Where a delivery vehicle's remaining stops are, in order.
  function stopsOf(v) {
    return (v.remainingVehicleJourneySegments || []).map(s => F.latLng(s.stop && s.stop.plannedLocation && s.stop.plannedLocation.point)).filter(Boolean);
  }
  function showVan(v) {
    const id = idOf(v.name);
    const old = vans.get(id);
    if (old) { vanLayer.removeLayer(old.group); }
    const at = F.latLng(v.lastLocation && v.lastLocation.location);
    const stops = stopsOf(v);
    const age = F.locationAge(v.lastLocation);
    const state = age == null || age > C.staleAfterSeconds ? 'stale' : 'online';
    const group = L.layerGroup();
    const points = (at ? [at] : []).concat(stops);
    if (points.length > 1) L.polyline(points, { color: '#7a4d00', weight: 3, dashArray: '4 6', opacity: 0.8, interactive: false }).addTo(group);
    stops.forEach((p, i) => {
      const marker = L.marker(p, { icon: stopIcon(i + 1), title: 'Stop ' + (i + 1) + ' of ' + id, alt: 'Stop ' + (i + 1), keyboard: false });
      marker.bindTooltip(F.textNode('span', id + ' · stop ' + (i + 1)));
      marker.addTo(group);
    });
    let marker = null;
    if (at) {
      marker = L.marker(at, { icon: vanIcon(state), title: id, alt: 'Delivery vehicle ' + id, keyboard: true, zIndexOffset: 500 });
      marker.bindTooltip(F.textNode('span', id + ' · ' + stops.length + (stops.length === 1 ? ' stop' : ' stops')));
      marker.addTo(group);
    }
    vans.set(id, { group: group, points: points, stops: stops.length });
    m.whenViewed(() => {
      if (vans.get(id) && vans.get(id).group !== group) return;
      group.addTo(vanLayer);
      const el = marker && marker.getElement();
      if (el) { el.dataset.field = 'deliveryVehicle'; el.dataset.vehicleId = id; el.dataset.state = state; el.dataset.stops = String(stops.length);
                el.dataset.lat = String(at.lat); el.dataset.lng = String(at.lng); }
      group.eachLayer(l => { const e = l.getElement && l.getElement(); if (e && e.classList.contains('delivery-stop')) { e.dataset.field = 'deliveryStop'; e.dataset.vehicleId = id; } });
    });
  }
  async function pollVans() {
    try {
      const listed = [];
      let token = '';
      do {
        const page = await F.api(base + '/deliveryVehicles?pageSize=500' + (token ? '&pageToken=' + encodeURIComponent(token) : ''));
        (page.deliveryVehicles || []).forEach(v => listed.push(v));
        token = page.nextPageToken || '';
      } while (token);
      // Each van with its stops (a van whose GetDeliveryVehicle fails is shown without them).
      const detailed = await Promise.all(listed.map((v, i) => i >= VAN_DETAILS ? v
        : F.api(base + '/deliveryVehicles/' + F.enc(idOf(v.name))).catch(() => v)));
      const present = new Set();
      detailed.forEach(v => { present.add(idOf(v.name)); showVan(v); });
      Array.from(vans.keys()).forEach(id => { if (!present.has(id)) { vanLayer.removeLayer(vans.get(id).group); vans.delete(id); } });
      let stops = 0;
      vans.forEach(v => { stops += v.stops; });
      const counts = F.setText('deliveryCounts', vans.size + (vans.size === 1 ? ' delivery vehicle' : ' delivery vehicles') + ', ' +
        stops + (stops === 1 ? ' stop' : ' stops') + ' to go');
      counts.hidden = vans.size === 0;
    } catch (e) {
      // A server or a token without Deliveries: the ride-hailing fleet alone.
      F.field('deliveryCounts').hidden = true;
    }
    deliveriesLoaded = true;
    fitOnce();
  }
  pollVans();
  setInterval(pollVans, 5000);

  // MARK: selection

  async function select(id, tripId) {
    const previous = selected;
    selected = id;
    if (previous && previous !== id) render(previous);
    render(id);
    showSelection(id, tripId);
    offerReplay(id, tripId);
  }

  // The route's points cut into pieces at the ends of its estimated legs: a leg no road covers runs straight
  // from the point before its waypoint to the waypoint itself (the server puts the waypoint in the route).
  function routePieces(points, v) {
    const estimated = new Set();
    let from = 0;
    for (const leg of (v.estimatedLegs || []).slice().sort((a, b) => (a.leg || 0) - (b.leg || 0))) {
      const w = (v.waypoints || [])[leg.leg || 0];
      const p = F.latLng(w && w.location && w.location.point);
      if (!p) continue;
      for (let i = Math.max(from, 1); i < points.length; i++) {
        if (L.latLng(points[i]).distanceTo(p) < 3) { estimated.add(i); from = i + 1; break; }
      }
    }
    const pieces = [];
    for (let i = 1; i < points.length; i++) {
      const dashed = estimated.has(i), last = pieces[pieces.length - 1];
      if (last && last.estimated === dashed) last.points.push(points[i]);
      else pieces.push({ estimated: dashed, points: [points[i - 1], points[i]] });
    }
    return pieces;
  }

  async function showSelection(id, tripId) {
    const box = document.getElementById('selection');
    const entry = vehicles.get(id);
    if (!entry) return;
    const v = entry.vehicle;
    routeLayer.clearLayers();
    if (v.currentRouteSegment) {
      // Legs no road covers (the server's estimatedLegs) are straight lines in the route: drawn dashed.
      m.whenViewed(() => routePieces(F.decodePolyline(v.currentRouteSegment), v).forEach(piece =>
        L.polyline(piece.points, piece.estimated
          ? { color: '#0b57d0', weight: 4, opacity: 0.85, dashArray: '2 9', className: 'estimated-leg' }
          : { color: '#0b57d0', weight: 5, opacity: 0.85 }).addTo(routeLayer)));
    }
    (v.waypoints || []).forEach(w => {
      const p = F.latLng(w.location && w.location.point);
      if (p) m.whenViewed(() => L.circleMarker(p, { radius: 6, color: '#fff', weight: 2, fillColor: w.waypointType === 'PICKUP_WAYPOINT_TYPE' ? '#137333' : '#b3261e', fillOpacity: 1 })
        .bindTooltip(F.textNode('span', (w.waypointType || '').replace('_WAYPOINT_TYPE', '').toLowerCase() + ' · ' + (w.tripId || ''))).addTo(routeLayer));
    });
    const age = F.locationAge(v.lastLocation);
    const facts = [
      ['Vehicle', id], ['State', stateOf(v)],
      ['Location', age == null ? 'none' : 'updated ' + F.ageText(age)],
      ['Next stop', v.remainingDistanceMeters == null ? '—' : F.distanceText(v.remainingDistanceMeters) + ', ' + F.etaText(F.parseTime(v.etaToFirstWaypoint))],
    ];
    for (const leg of v.estimatedLegs || []) {
      const w = (v.waypoints || [])[leg.leg || 0];
      const to = w ? (w.waypointType || '').replace('_WAYPOINT_TYPE', '').toLowerCase() + ' · ' + (w.tripId || '') : 'waypoint ' + ((leg.leg || 0) + 1);
      facts.push(['No road', 'to ' + to + ': straight-line estimate (' + (leg.cause || '') + ')']);
    }
    const dl = document.createElement('dl'); dl.className = 'facts';
    for (const [k, val] of facts) {
      const div = document.createElement('div'), dt = document.createElement('dt'), dd = document.createElement('dd');
      dt.textContent = k; dd.textContent = val; div.append(dt, dd); dl.append(div);
    }
    const trips = document.createElement('ul'); trips.dataset.field = 'vehicleTrips';
    box.textContent = '';
    box.dataset.vehicleId = id;
    box.append(dl, trips);
    const ids = new Set(v.currentTrips || []);
    if (tripId) ids.add(tripId);
    if (!ids.size) { const li = document.createElement('li'); li.textContent = 'No current trips'; trips.append(li); return; }
    try {
      const found = await F.api(base + '/trips:search', { method: 'POST', body: JSON.stringify({ vehicleId: id, activeTripsOnly: true, pageSize: 50 }) });
      const byId = new Map((found.trips || []).map(t => [idOf(t.name), t]));
      for (const t of ids) {
        const li = document.createElement('li');
        const trip = byId.get(t);
        li.textContent = t + ': ' + (trip ? trip.tripStatus : 'not active');
        li.dataset.tripId = t;
        trips.append(li);
      }
    } catch (e) {
      const li = document.createElement('li'); li.textContent = F.words(e).advice + ' (' + e.message + ')'; trips.append(li);
    }
  }

  document.getElementById('search').addEventListener('submit', async (event) => {
    event.preventDefault();
    const q = document.getElementById('search-box').value.trim();
    if (!q) return;
    if (vehicles.has(q)) { select(q); centre(q); return; }
    try {
      const t = await F.api(base + '/trips/' + F.enc(q));
      if (t.vehicleId && vehicles.has(t.vehicleId)) { select(t.vehicleId, q); centre(t.vehicleId); return; }
      document.getElementById('selection').textContent = 'Trip ' + q + ' (' + t.tripStatus + ') has no vehicle on the map.';
    } catch (e) {
      document.getElementById('selection').textContent = e.code === 'NOT_FOUND' ? 'No vehicle or trip with the ID ' + q + '.' : F.words(e).advice;
    }
  });
  function centre(id) {
    const e = vehicles.get(id), p = e && F.latLng(e.vehicle.lastLocation && e.vehicle.lastLocation.location);
    if (p && m.hasView) map.panTo(p);
  }

  // MARK: replay

  // The selected vehicle's (or one of its trips') driven path from the history extension, over a
  // span (the last hour by default), played back with a time slider.
  const replayForm = document.getElementById('replay');
  const replayLayer = L.layerGroup();
  m.whenViewed(() => replayLayer.addTo(map));
  let replayPoints = [], replayMarker = null, playing = null;
  const field = name => replayForm.querySelector('[data-field="' + name + '"]');
  const localInput = date => new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString().slice(0, 19);

  function offerReplay(id, tripId) {
    const subject = field('replaySubject');
    subject.textContent = '';
    const entry = vehicles.get(id);
    const trips = new Set((entry && entry.vehicle.currentTrips) || []);
    if (tripId) trips.add(tripId);
    const options = [['vehicles/' + id, 'vehicle ' + id]].concat(Array.from(trips).map(t => ['trips/' + t, 'trip ' + t]));
    for (const [value, label] of options) {
      const option = document.createElement('option');
      option.value = value; option.textContent = label;
      subject.append(option);
    }
    if (tripId) subject.value = 'trips/' + tripId;
    if (!field('replayFrom').value) {
      const now = new Date();
      field('replayFrom').value = localInput(new Date(now.getTime() - 3600 * 1000));
      field('replayTo').value = localInput(new Date(now.getTime() + 60 * 1000));
    }
    replayForm.hidden = false;
  }

  replayForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    stopPlaying();
    const status = field('replayStatus');
    const from = new Date(field('replayFrom').value), to = new Date(field('replayTo').value);
    if (isNaN(from) || isNaN(to) || to <= from) { status.textContent = 'Choose a span whose end is after its start.'; return; }
    status.textContent = 'Loading…';
    const points = [];
    try {
      let token = '';
      do {
        const page = await F.api(base + '/' + field('replaySubject').value.split('/').map(F.enc).join('/') + ':history?from=' +
          encodeURIComponent(from.toISOString()) + '&to=' + encodeURIComponent(to.toISOString()) + (token ? '&pageToken=' + encodeURIComponent(token) : ''));
        (page.points || []).forEach(p => points.push(p));
        token = page.nextPageToken || '';
      } while (token);
    } catch (e) {
      status.textContent = F.words(e).advice + ' (' + e.message + ')';
      return;
    }
    showReplay(points);
  });

  function showReplay(points) {
    replayPoints = points;
    replayLayer.clearLayers();
    replayMarker = null;
    const slider = field('replaySlider'), status = field('replayStatus');
    field('replayPlayer').hidden = points.length === 0;
    status.textContent = points.length === 0 ? 'No positions kept in that span.' : points.length + (points.length === 1 ? ' position' : ' positions');
    status.dataset.count = String(points.length);
    if (!points.length) return;
    const path = points.map(p => [p.location.latitude, p.location.longitude]);
    slider.max = String(points.length - 1);
    slider.value = '0';
    m.whenViewed(() => {
      L.polyline(path, { color: '#7a4d00', weight: 4, opacity: 0.8 }).addTo(replayLayer);
      replayMarker = L.circleMarker(path[0], { radius: 8, color: '#fff', weight: 2, fillColor: '#7a4d00', fillOpacity: 1 }).addTo(replayLayer);
      map.fitBounds(L.latLngBounds(path), { padding: [24, 24], maxZoom: 17 });
      showReplayPoint();
    });
    showReplayPoint();
  }

  function showReplayPoint() {
    const i = Number(field('replaySlider').value), p = replayPoints[i];
    if (!p) return;
    const at = [p.location.latitude, p.location.longitude];
    if (replayMarker) replayMarker.setLatLng(at);
    const out = field('replayTime');
    out.textContent = new Date(p.time).toLocaleTimeString() + (p.speed == null ? '' : ' · ' + Math.round(p.speed * 3.6) + ' km/h');
    out.dataset.index = String(i);
    out.dataset.lat = String(at[0]);
    out.dataset.lng = String(at[1]);
    out.dataset.time = p.time;
  }

  function stopPlaying() {
    if (playing) { clearInterval(playing); playing = null; }
    field('replayPlay').textContent = 'Play';
  }

  field('replaySlider').addEventListener('input', () => { stopPlaying(); showReplayPoint(); });
  field('replayPlay').addEventListener('click', () => {
    if (playing) { stopPlaying(); return; }
    const slider = field('replaySlider');
    if (Number(slider.value) >= Number(slider.max)) slider.value = '0';
    field('replayPlay').textContent = 'Pause';
    playing = setInterval(() => {
      if (Number(slider.value) >= Number(slider.max)) { stopPlaying(); return; }
      slider.value = String(Number(slider.value) + 1);
      showReplayPoint();
    }, 250);
  });

  // MARK: live

  F.live({
    stream: base + '/vehicles:watch',
    onEvent: (event, data) => {
      if (event === 'vehicle') upsert(data);
      else if (event === 'deleted') remove(data.name);
      else if (event === 'synced') {
        // The whole fleet has arrived: forget vehicles deleted while the stream was down.
        const present = new Set(data.vehicleIds || []);
        Array.from(vehicles.keys()).forEach(id => { if (!present.has(id)) remove('/' + id); });
        synced = true; vehiclesLoaded = true; fitOnce();
      }
      list();
    },
    poll: async () => {
      const categories = ['AUTO', 'TAXI', 'TRUCK', 'TWO_WHEELER', 'BICYCLE', 'PEDESTRIAN'].map(c => 'vehicleTypeCategories=' + c).join('&');
      const answer = await F.api(base + '/vehicles?pageSize=1000&' + categories);
      const present = new Set();
      (answer.vehicles || []).forEach(v => { present.add(idOf(v.name)); upsert(v); });
      Array.from(vehicles.keys()).forEach(id => { if (!present.has(id)) remove('/' + id); });
      vehiclesLoaded = true; fitOnce(); list();
    },
    pollSeconds: 5,
  });
  // States turn stale with the clock alone.
  setInterval(() => { vehicles.forEach((e, id) => render(id)); if (synced) list(); }, 2000);
})();
