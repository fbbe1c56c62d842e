// Shared by the rider's, the customer's and the operator's pages: configuration, the REST calls with the page's
// token, live event streams with fallback to polling, error words, time and distance text, the map
// and its base layer, and route geometry. Plain JavaScript for Leaflet 1.7 (Debian libjs-leaflet).
'use strict';
window.FleetMap = (function () {
  const config = JSON.parse(document.getElementById('fleet-map-config').textContent);
  // The page's token: from its URL, then from --map-token-url each time the server says it expired.
  let token = new URLSearchParams(location.search).get('token');
  // The server's clock, as of the page's rendering: ages and ETAs are measured on it.
  const clockOffset = config.serverTimeMillis - Date.now();
  const now = () => Date.now() + clockOffset;

  function field(name) { return document.querySelector('[data-field="' + name + '"]'); }
  function setText(name, text) { const el = field(name); if (el && el.textContent !== text) el.textContent = text; return el; }
  function enc(s) { return encodeURIComponent(s); }
  // An element holding `text` as text. Leaflet sets a string given to bindTooltip, bindPopup or a
  // divIcon's html as HTML: the server's data (IDs, attributes, messages) reaches Leaflet only so.
  function textNode(tag, text) { const el = document.createElement(tag); el.textContent = text == null ? '' : String(text); return el; }
  // `text` escaped for the few Leaflet calls that take only HTML strings (attributions).
  function escapeHTML(text) {
    return String(text == null ? '' : text).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  }

  // An error the page can show: gRPC code name, catalogue reason, message, and the seconds the
  // server asked to wait before trying again (its Retry-After: a rate limit's), or null.
  class PageError extends Error {
    constructor(code, reason, message) { super(message); this.code = code; this.reason = reason; this.retryAfter = null; }
  }

  // The error of a refused answer, with its Retry-After in seconds when it has one.
  async function refusal(response) {
    let body = null;
    try { body = await response.json(); } catch (e) { /* not JSON */ }
    const error = errorFromBody(response.status, body);
    const wait = Number(response.headers.get('Retry-After'));
    if (wait > 0 && isFinite(wait)) error.retryAfter = wait;
    return error;
  }

  function errorFromBody(status, body) {
    const e = body && body.error;
    if (e) {
      const info = (e.details || []).find(d => d.reason);
      return new PageError(e.status || 'UNKNOWN', info ? info.reason : null, e.message || 'HTTP ' + status);
    }
    return new PageError(status >= 500 ? 'UNAVAILABLE' : 'UNKNOWN', null, 'HTTP ' + status);
  }

  function headers(extra) {
    const h = Object.assign({ 'Accept': 'application/json' }, extra || {});
    if (token) h['Authorization'] = 'Bearer ' + token;
    return h;
  }

  // One REST call; resolves with the JSON answer, rejects with a PageError.
  async function api(path, options) {
    let response;
    try {
      response = await fetch(path, Object.assign({ headers: headers(options && options.body ? { 'Content-Type': 'application/json' } : null), cache: 'no-store' }, options || {}));
    } catch (e) {
      throw new PageError('UNAVAILABLE', 'SERVER_UNREACHABLE', String(e.message || e));
    }
    if (!response.ok) throw await refusal(response);
    let body = null;
    try { body = await response.json(); } catch (e) { /* not JSON */ }
    return body;
  }

  // The catalogue's words for an error: advice for the person looking, the message, the remedy.
  function words(error) {
    const cause = error.reason && config.errors[error.reason];
    const advice = cause ? cause.advice : (config.codes[error.code] || 'Something went wrong.');
    return { advice: advice, message: error.message, remedy: cause ? cause.remedy : '', code: error.code, reason: error.reason };
  }

  // A client error will not go away by retrying (a bad or expired token, a deleted trip).
  function isFinal(error) {
    return ['UNAUTHENTICATED', 'PERMISSION_DENIED', 'NOT_FOUND', 'INVALID_ARGUMENT'].includes(error.code);
  }

  function showError(error) {
    const w = words(error);
    const box = document.getElementById('error');
    box.textContent = '';
    const advice = document.createElement('p'); advice.className = 'advice'; advice.textContent = w.advice;
    const message = document.createElement('p'); message.className = 'message'; message.textContent = w.message;
    box.append(advice, message);
    if (w.remedy) {
      const details = document.createElement('details');
      const summary = document.createElement('summary'); summary.textContent = "What to do (for the app's developers)";
      const remedy = document.createElement('p'); remedy.textContent = w.remedy;
      const code = document.createElement('code'); code.textContent = w.code + (w.reason ? ' · ' + w.reason : '');
      details.append(summary, remedy, code);
      box.append(details);
    }
    box.dataset.code = w.code;
    box.dataset.reason = w.reason || '';
    box.hidden = false;
  }
  function clearError() { const box = document.getElementById('error'); box.hidden = true; }

  // Reads a text/event-stream with fetch (EventSource cannot send the token as a header).
  async function readStream(path, onEvent, signal) {
    let response;
    try {
      response = await fetch(path, { headers: headers({ 'Accept': 'text/event-stream' }), cache: 'no-store', signal: signal });
    } catch (e) {
      throw new PageError('UNAVAILABLE', 'SERVER_UNREACHABLE', String(e.message || e));
    }
    if (!response.ok) throw await refusal(response);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '', event = 'message', data = [];
    for (;;) {
      let chunk;
      try { chunk = await reader.read(); } catch (e) { throw new PageError('UNAVAILABLE', 'CONNECTION_LOST', String(e.message || e)); }
      if (chunk.done) throw new PageError('UNAVAILABLE', 'CONNECTION_LOST', 'the live stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
      let newline;
      while ((newline = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
        if (line === '') {
          if (data.length) onEvent(event, data.join('\n'));
          event = 'message'; data = [];
        } else if (line.startsWith(':')) {
          // keepalive comment
        } else {
          const colon = line.indexOf(':');
          const name = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (name === 'event') event = value; else if (name === 'data') data.push(value);
        }
      }
    }
  }

  // A new token from the page's token URL (`config.tokenUrl`, with the browser's credentials for the
  // app's origin), when the server refuses the current one as expired. Resolves with whether one came.
  async function renewToken() {
    if (!config.tokenUrl) return false;
    try {
      const response = await fetch(config.tokenUrl, { credentials: 'include', cache: 'no-store', headers: { 'Accept': 'application/json' } });
      if (!response.ok) return false;
      const body = await response.json();
      if (!body || typeof body.token !== 'string' || !body.token) return false;
      token = body.token;
      return true;
    } catch (e) {
      return false;
    }
  }

  // Keeps a page live: the event stream while it works; when it breaks, polling (every `pollSeconds`)
  // while reconnecting with backoff (1 s doubling to 30 s, with jitter), as consumer-follow does.
  // A final error (bad token, deleted resource) stops everything and is shown. A rate limit is shown
  // and waited out: nothing is sent again before its Retry-After has passed. When the server ends
  // the stream because the token expired (UNAUTHENTICATED), a page with a token URL fetches a new
  // token and reconnects at once; the stream's first event is the state as it is then, so no change
  // is lost. A new token refused before any event stops the page, as a final error does.
  function live(options) {
    let attempt = 0, pollTimer = null, stopped = false, controller = null, renewedWithoutEvent = false;
    let quietUntil = 0;  // no call before this time (Date.now()): the server's Retry-After
    const holdFor = error => { if (error.retryAfter) quietUntil = Math.max(quietUntil, Date.now() + error.retryAfter * 1000); };
    const status = text => { setText('connection', text); document.body.dataset.connection = text.split(' ')[0].toLowerCase(); };
    function stop(error) {
      stopped = true;
      if (pollTimer) clearInterval(pollTimer);
      if (controller) controller.abort();
      if (error) { showError(error); status('Stopped.'); }
    }
    function startPolling() {
      if (pollTimer || !options.poll) return;
      const poll = () => Date.now() < quietUntil ? null : options.poll().then(() => { renewedWithoutEvent = false; clearError(); }).catch(e => {
        holdFor(e);
        // A poll answered after the stream came back (polling stopped meanwhile): the stream is what
        // counts now, and it has cleared the error; showing this one would keep it up while live.
        if (stopped || !pollTimer) return;
        // An expired token while polling: a new one for the next poll, as for the stream.
        if (e.code === 'UNAUTHENTICATED' && config.tokenUrl && !renewedWithoutEvent) {
          renewedWithoutEvent = true;
          renewToken().then(renewed => { if (!renewed) stop(e); });
        } else if (isFinal(e)) stop(e); else showError(e);
      });
      poll();
      pollTimer = setInterval(poll, (options.pollSeconds || 5) * 1000);
    }
    // Fetches a new token and reconnects, for an expired token; false when there is none to fetch.
    function renewAndReconnect(error) {
      if (error.code !== 'UNAUTHENTICATED' || !config.tokenUrl || renewedWithoutEvent) return false;
      renewedWithoutEvent = true;
      if (controller) controller.abort();
      controller = null;
      status('Renewing the link…');
      renewToken().then(renewed => { if (renewed) connect(); else stop(error); });
      return true;
    }
    function connect() {
      if (stopped) return;
      const own = controller = new AbortController();
      let opened = false;
      readStream(options.stream, (event, data) => {
        if (own !== controller) return;
        if (!opened) {
          opened = true; attempt = 0; clearError(); status('Live.');
          if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
        }
        if (event === 'error') {
          let body = null; try { body = JSON.parse(data); } catch (e) { /* not JSON */ }
          const error = errorFromBody(500, body);
          if (renewAndReconnect(error)) return;
          if (isFinal(error)) stop(error); else showError(error);
          return;
        }
        renewedWithoutEvent = false;
        options.onEvent(event, JSON.parse(data));
      }, own.signal).catch(error => {
        if (stopped || own !== controller) return;
        if (renewAndReconnect(error)) return;
        if (isFinal(error)) { stop(error); return; }
        holdFor(error);
        const delay = Math.max(Math.min(30, Math.pow(2, attempt)) * (0.8 + Math.random() * 0.4), (quietUntil - Date.now()) / 1000);
        attempt += 1;
        status('Reconnecting in ' + Math.max(1, Math.round(delay)) + ' s (updates every ' + (options.pollSeconds || 5) + ' s meanwhile)…');
        if (attempt > 1 || error.retryAfter) showError(error);
        startPolling();
        setTimeout(connect, delay * 1000);
      });
    }
    connect();
    return { stop: stop };
  }

  // MARK: text

  function parseTime(text) {
    if (!text) return null;
    const trimmed = String(text).replace(/(\.\d{3})\d+/, '$1');
    const t = Date.parse(trimmed);
    return isNaN(t) ? null : t;
  }
  function clock(ms) {
    const d = new Date(ms);
    return String(d.getHours()).padStart(2, '0') + ':' + String(d.getMinutes()).padStart(2, '0');
  }
  // "14:05 · in 6 min", "14:05 · now".
  function etaText(ms) {
    if (ms == null) return '—';
    const minutes = Math.round((ms - now()) / 60000);
    return clock(ms) + ' · ' + (minutes <= 0 ? 'now' : 'in ' + minutes + ' min');
  }
  function distanceText(meters) {
    if (meters == null) return '—';
    if (meters < 950) return Math.round(meters / 10) * 10 + ' m';
    return (meters / 1000).toFixed(meters < 9950 ? 1 : 0) + ' km';
  }
  function ageText(seconds) {
    if (seconds < 60) return Math.max(0, Math.round(seconds)) + ' s ago';
    if (seconds < 3600) return Math.floor(seconds / 60) + ' min ago';
    return Math.floor(seconds / 3600) + ' h ago';
  }
  // How old a VehicleLocation is on the server's clock, in seconds (null without one).
  function locationAge(location) {
    const t = location && (parseTime(location.serverTime) || parseTime(location.updateTime));
    return t == null ? null : Math.max(0, (now() - t) / 1000);
  }

  // MARK: map

  function latLng(p) { return p && p.latitude != null && p.longitude != null ? L.latLng(p.latitude, p.longitude) : null; }

  // The map without a view. Leaflet 1.7 fails on vector layers added before the map has a view
  // ("reading 'min'"), so the base layer and every vector layer wait for `ensureView`.
  function createMap() {
    const map = L.map('map', { zoomControl: true, attributionControl: true });
    // For pages that embed this one and for tests: the Leaflet map itself.
    window.FleetMap.leafletMap = map;
    map.attributionControl.setPrefix(false);
    let hasView = false, roads = null;
    const waiting = [];
    if (config.roads && !config.tiles) {
      fetch(config.roads, { cache: 'default' }).then(r => r.ok ? r.json() : null).then(data => {
        roads = data;
        if (hasView && roads) addRoads();
      }).catch(() => { /* the map works without its roads */ });
    }
    function addRoads() {
      L.geoJSON(roads, { interactive: false, style: { color: '#9aa0a6', weight: 2, opacity: 0.9 } }).addTo(map);
      map.attributionControl.addAttribution(escapeHTML(config.roadsAttribution));
    }
    return {
      map: map,
      get hasView() { return hasView; },
      // Sets the first view (fits `bounds`, or the roads', or the world), then adds the layers.
      ensureView(bounds) {
        if (hasView) return;
        if (bounds && bounds.isValid()) {
          map.fitBounds(bounds.pad(0.15), { maxZoom: 17, animate: false });
        } else {
          map.setView([20, 0], 2, { animate: false });
        }
        hasView = true;
        if (config.tiles) {
          L.tileLayer(config.tiles, { attribution: escapeHTML(config.tilesAttribution || ''), maxZoom: 19 }).addTo(map);
        } else if (roads) {
          addRoads();
        }
        while (waiting.length) waiting.shift()();
      },
      // Runs `body` once the map has a view.
      whenViewed(body) { if (hasView) body(); else waiting.push(body); },
    };
  }

  // The camera of the rider's and the customer's pages, as journey sharing's: it keeps the vehicle
  // and its next stop in view (moving only when one of them nears the edge or the zoom that fits
  // both changes), until the person pans or zooms. Then it stays where they put it, and the button
  // (`label`, `data-field="follow"`) brings the following back. The page's own moves are made
  // without animation, so Leaflet reports them at once, while `ownMove` is set: any other movestart
  // or zoomstart is the person's (a resize is neither). `<body data-following>` says which.
  function camera(m, label) {
    const map = m.map;
    let following = true, ownMove = false, points = [];
    const Control = L.Control.extend({
      options: { position: 'topright' },
      onAdd() {
        const button = L.DomUtil.create('button', 'follow-control');
        button.type = 'button';
        button.textContent = label;
        button.dataset.field = 'follow';
        button.hidden = true;
        L.DomEvent.disableClickPropagation(button);
        L.DomEvent.on(button, 'click', () => setFollowing(true));
        return button;
      },
    });
    const control = new Control();
    control.addTo(map);
    document.body.dataset.following = 'true';
    function setFollowing(on) {
      if (following === on) return;
      following = on;
      document.body.dataset.following = String(on);
      control.getContainer().hidden = on;
      if (on) fit();
    }
    function fit() {
      if (!following || !m.hasView || !points.length) return;
      const bounds = L.latLngBounds(points).pad(0.3);
      const zoom = Math.min(17, map.getBoundsZoom(bounds));
      const inner = map.getBounds().pad(-0.1);
      if (zoom === map.getZoom() && points.every(p => inner.contains(p))) return;
      ownMove = true;
      try { map.fitBounds(bounds, { maxZoom: 17, animate: false }); } finally { ownMove = false; }
    }
    m.whenViewed(() => map.on('movestart zoomstart', () => { if (!ownMove) setFollowing(false); }));
    return {
      // Keeps `targets` (the vehicle first, then its next stop; missing ones left out) in view, while following.
      follow(targets) { points = targets.filter(Boolean); if (points.length) fit(); },
    };
  }

  // Google's encoded polyline format, as Vehicle.currentRouteSegment carries it.
  function decodePolyline(text) {
    const points = []; let index = 0, lat = 0, lng = 0;
    while (index < text.length) {
      for (const which of [0, 1]) {
        let shift = 0, result = 0, byte;
        do { byte = text.charCodeAt(index++) - 63; result |= (byte & 0x1f) << shift; shift += 5; } while (byte >= 0x20);
        const delta = (result & 1) ? ~(result >> 1) : (result >> 1);
        if (which === 0) lat += delta; else lng += delta;
      }
      points.push(L.latLng(lat / 1e5, lng / 1e5));
    }
    return points;
  }

  // MARK: route geometry (metres along a polyline)

  // A polyline measured: cumulative metres at each point.
  function measure(points) {
    const along = [0];
    for (let i = 1; i < points.length; i++) along.push(along[i - 1] + points[i - 1].distanceTo(points[i]));
    return { points: points, along: along, length: along[along.length - 1] || 0 };
  }
  // The point of `line` nearest `p`: metres along the line and metres off it. Flat-earth within a
  // segment, which is plenty at street scale. `from` skips what lies before it (waypoints in order).
  function project(line, p, from) {
    let best = { along: 0, off: Infinity };
    const cos = Math.cos(p.lat * Math.PI / 180);
    for (let i = 1; i < line.points.length; i++) {
      if (from != null && line.along[i] < from) continue;
      const a = line.points[i - 1], b = line.points[i];
      const ax = a.lng * cos, ay = a.lat, bx = b.lng * cos, by = b.lat, px = p.lng * cos, py = p.lat;
      const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
      let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
      t = Math.max(0, Math.min(1, t));
      const q = L.latLng(a.lat + (b.lat - a.lat) * t, a.lng + (b.lng - a.lng) * t);
      const off = q.distanceTo(p);
      if (off < best.off) best = { along: line.along[i - 1] + (line.along[i] - line.along[i - 1]) * t, off: off, index: i - 1 };
    }
    return best;
  }
  function pointAt(line, meters) {
    const m = Math.max(0, Math.min(line.length, meters));
    for (let i = 1; i < line.points.length; i++) {
      if (line.along[i] >= m) {
        const span = line.along[i] - line.along[i - 1];
        const t = span > 0 ? (m - line.along[i - 1]) / span : 0;
        const a = line.points[i - 1], b = line.points[i];
        return L.latLng(a.lat + (b.lat - a.lat) * t, a.lng + (b.lng - a.lng) * t);
      }
    }
    return line.points[line.points.length - 1];
  }
  // The part of `line` between two distances along it.
  function slice(line, start, end) {
    if (!(end > start)) return [];
    const out = [pointAt(line, start)];
    for (let i = 0; i < line.points.length; i++) if (line.along[i] > start && line.along[i] < end) out.push(line.points[i]);
    out.push(pointAt(line, end));
    return out;
  }
  function bearing(a, b) {
    const φ1 = a.lat * Math.PI / 180, φ2 = b.lat * Math.PI / 180, Δλ = (b.lng - a.lng) * Math.PI / 180;
    const y = Math.sin(Δλ) * Math.cos(φ2), x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
    return (Math.atan2(y, x) * 180 / Math.PI + 360) % 360;
  }

  return {
    config, token, now, field, setText, enc, textNode, escapeHTML, api, live, words, showError, clearError, isFinal, PageError,
    parseTime, clock, etaText, distanceText, ageText, locationAge, latLng, createMap, camera, decodePolyline,
    measure, project, pointAt, slice, bearing,
  };
})();
