extension WebPage {
    /// The style both pages share (the receiver's and the fleet's).
    static let style = #"""
        :root { --bg: #f6f7f9; --panel: #fff; --ink: #1d2330; --muted: #667085; --line: #d9dde5; --accent: #1f6feb; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--ink); }
        header { display: flex; align-items: center; gap: 12px; padding: 10px 16px; background: var(--panel); border-bottom: 1px solid var(--line); }
        header h1 { font-size: 16px; margin: 0; font-weight: 600; }
        .pill { padding: 2px 10px; border-radius: 999px; font-size: 12px; background: #e5e7eb; }
        .pill.connected { background: #d1fadf; color: #05603a; }
        .pill.searching, .pill.connecting { background: #fef0c7; color: #93370d; }
        .pill.unplugged { background: #fee4e2; color: #912018; }
        .pill.ended { background: #e0eaff; color: #1d3c8f; }
        main { display: grid; grid-template-columns: minmax(0, 2fr) minmax(280px, 1fr); grid-template-areas: "map days" "map now" "map status" "trips sky"; align-items: start; gap: 12px; padding: 12px; }
        section { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px; min-width: 0; }
        section h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 8px; }
        #map-panel { grid-area: map; align-self: stretch; display: flex; flex-direction: column; }
        #map { width: 100%; flex: 1 1 auto; min-height: 420px; border-radius: 6px; }
        #now { grid-area: now; } #status { grid-area: status; } #sky-panel { grid-area: sky; }
        .big { font-size: 20px; font-weight: 600; }
        dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 8px 0 0; }
        dt { color: var(--muted); }
        dd { margin: 0; font-variant-numeric: tabular-nums; }
        table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
        th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
        tbody tr { cursor: pointer; }
        tbody tr:hover { background: #f2f4f7; }
        tbody tr.selected { background: #dbe8ff; }
        #trips-panel { grid-area: trips; overflow-x: auto; }
        .vessel-label { background: rgba(255, 255, 255, 0.85); border: 0; box-shadow: none; padding: 0 3px; font-size: 11px; }
        .leaflet-popup-content table { width: auto; } .leaflet-popup-content td { padding: 1px 6px; cursor: auto; }
        body:not(.fleet) main:has(#days-panel[hidden]) { grid-template-areas: "map now" "map status" "trips sky"; }
        #days-panel { grid-area: days; } #day { width: 100%; margin-bottom: 8px; }
        .replay-row { display: flex; gap: 8px; align-items: center; } #scrub { width: 100%; }
        .fleet main { grid-template-areas: "map days" "map vehicles" "trips vehicles" "trips events"; }
        #vehicles-panel { grid-area: vehicles; } #geofence-events-panel { grid-area: events; }
        #trips td:nth-child(-n+4), #fleet-trips td:nth-child(-n+5), #vehicles td:nth-child(-n+3) { white-space: nowrap; }
        #sky { width: 100%; max-width: 260px; display: block; margin: 0 auto; }
        #bars-scroll { overflow-x: auto; margin-top: 8px; } #bars { display: block; }
        #sky-note { margin: 6px 0 0; font-size: 12px; }
        .legend i.hollow { background: #fff; border: 2px solid #667085; height: 8px; width: 8px; border-radius: 50%; }
        .legend i.dot { height: 8px; width: 8px; border-radius: 50%; }
        .legend { display: flex; gap: 10px; flex-wrap: wrap; font-size: 12px; color: var(--muted); margin-top: 6px; }
        .legend i { display: inline-block; width: 18px; height: 4px; vertical-align: middle; margin-right: 4px; }
        .muted { color: var(--muted); }
        @media (max-width: 800px) {
          main { grid-template-columns: 1fr; grid-template-areas: "map" "days" "now" "trips" "status" "sky"; padding: 8px; }
          body:not(.fleet) main:has(#days-panel[hidden]) { grid-template-areas: "map" "now" "trips" "status" "sky"; }
          .fleet main { grid-template-areas: "map" "days" "vehicles" "trips" "events"; }
          #map { flex: none; height: 360px; min-height: 0; }
          th.wide, td.wide { display: none; }
        }
        """#

    /// The day picker and the replay's controls (both pages; the scripts fill the days in).
    static let daysPanel = #"""
        <section id="days-panel" hidden><h2>Days</h2>
        <select id="day" aria-label="Day"><option value="">Today (live)</option></select>
        <div id="replay" hidden>
        <div class="replay-row"><button id="play" type="button">Play</button>
        <select id="replay-speed" aria-label="Replay speed"><option value="10">10×</option><option value="60" selected>60×</option><option value="300">300×</option><option value="1800">1800×</option></select>
        <span id="replay-time">–</span></div>
        <input id="scrub" type="range" min="0" max="1000" value="0" aria-label="Time of day">
        </div>
        </section>
        """#

    /// The page's HTML, style and script. `{{…}}` are filled in by ``render(_:tiles:)``: the Now panel's values
    /// (so the first response shows them) and the initial state for the script.
    static let template = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>nmea · position</title>
        <style>
        {{style}}
        {{map-style}}
        </style>
        </head>
        <body data-ready="0">
        <header><h1>nmea</h1><span id="connection" class="pill">…</span><span id="device" class="muted"></span></header>
        <main>
        <section id="map-panel"><h2>Today's track</h2>
        <div id="map" role="region" aria-label="Track map"></div>
        <div class="legend"><span><i style="background:#2e90fa"></i>&lt; 10 km/h</span><span><i style="background:#12b76a"></i>&lt; 30</span><span><i style="background:#eaaa08"></i>&lt; 60</span><span><i style="background:#f79009"></i>&lt; 90</span><span><i style="background:#d92d20"></i>≥ 90</span><span id="map-note"></span></div>
        </section>
        <section id="now"><h2>Now</h2>
        <div class="big" id="decimal">{{decimal}}</div>
        <div id="dm">{{dm}}</div>
        <div id="place">{{place}}</div>
        <dl>
        <dt>Fix</dt><dd id="fix">{{fix}}</dd>
        <dt>Time</dt><dd id="time">{{time}}</dd>
        <dt>Satellites</dt><dd id="sats">–</dd>
        <dt>Speed</dt><dd id="speed">–</dd>
        <dt>Course</dt><dd id="course">–</dd>
        <dt>Altitude</dt><dd id="alt">–</dd>
        <dt>Age</dt><dd id="age">–</dd>
        </dl>
        </section>
        <section id="status"><h2>Receiver</h2>
        <dl>
        <dt>Device</dt><dd id="status-device">–</dd>
        <dt>Connection</dt><dd id="status-connection">–</dd>
        <dt>Rate</dt><dd id="status-rate">–</dd>
        <dt>Sentences</dt><dd id="status-sentences">–</dd>
        <dt>Rejected</dt><dd id="status-rejected">–</dd>
        <dt>Systems</dt><dd id="status-systems">–</dd>
        <dt id="status-corrections-label" hidden>Corrections</dt><dd id="status-corrections" hidden>–</dd>
        </dl>
        </section>
        <section id="sky-panel"><h2>Satellites</h2>
        <svg id="sky" viewBox="-110 -110 220 220" role="img" aria-label="Sky plot"></svg>
        <p id="sky-note" class="muted" hidden></p>
        <div id="bars-scroll"><svg id="bars" viewBox="0 0 300 110" width="300" height="110" role="img" aria-label="Signal strengths (dB-Hz)"></svg></div>
        <div class="legend" id="sky-legend"></div>
        </section>
        <section id="trips-panel"><h2>Trips</h2>
        <table id="trips"><thead><tr><th>Start</th><th>End</th><th>Duration</th><th>Distance</th><th>From</th><th class="wide">To</th></tr></thead><tbody></tbody></table>
        <p id="trips-empty" class="muted">No trip yet.</p>
        </section>
        {{days-panel}}
        </main>
        <script id="initial" type="application/json">{{initial}}</script>
        <script src="/leaflet.js"></script>
        <script src="{{track-script}}"></script>
        <script>
        "use strict";
        {{map-script}}
        const SVG = "http://www.w3.org/2000/svg";
        function el(name, attributes, parent) {
          const node = document.createElementNS(SVG, name);
          for (const key in attributes) node.setAttribute(key, attributes[key]);
          if (parent) parent.appendChild(node);
          return node;
        }
        (function () {
          const $ = (id) => document.getElementById(id);
          const initial = JSON.parse($("initial").textContent);
          let position = initial.position, status = initial.status, trips = initial.trips, satellites = initial.satellites;
          let positionAt = Date.now();
          let track = [];            // segments: {points: [[lon, lat, timeMs, speed]]}
          let selected = null;       // index into trips.trips
          let trackTimer = null;
          let screen = null;         // the last map's projection to screen units
          const tiles = initial.tiles;
          // A day gone by (?day=, with --history), replayed; null for today, live.
          const dayShown = initial.day || null;
          if (dayShown && window.nmeaDayTrips) trips = window.nmeaDayTrips;

          function text(id, value) { const element = $(id); if (element.textContent !== value) element.textContent = value; }
          function fmt(value, decimals, unit) { return value == null ? "–" : value.toFixed(decimals) + (unit ? " " + unit : ""); }
          function duration(seconds) {
            const s = Math.round(seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
            return h > 0 ? h + " h " + String(m).padStart(2, "0") + " min" : m + " min " + String(s % 60).padStart(2, "0") + " s";
          }
          function clock(iso) { return iso ? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "") + " UTC" : "–"; }

          // Now
          function renderNow() {
            const p = position;
            if (!p) return;
            text("decimal", p.decimal || "–");
            text("dm", p.dm || "–");
            text("place", p.place || "no place name");
            text("fix", fixName(p));
            text("time", clock(p.time));
            text("speed", p.speed == null ? "–" : fmt(p.speed * 3.6, 1, "km/h"));
            text("course", fmt(p.course, 1, "°"));
            text("alt", fmt(p.alt, 1, "m"));
            renderAge();
          }
          function fixName(p) {
            const names = { "3d": "3D fix", "2d": "2D fix", none: "no fix" };
            let name = names[p.mode] || p.mode;
            if (p.quality && p.quality !== "gps" && p.quality !== "none") name += " (" + p.quality + ")";
            return name;
          }
          function renderAge() {
            if (!position) return;
            if (status && status.connection === "ended") { text("age", "– (the log has ended)"); return; }
            const age = position.age_s + (Date.now() - positionAt) / 1000;
            text("age", age < 60 ? age.toFixed(1) + " s" : duration(age));
          }

          // Status
          function renderStatus() {
            const s = status || {};
            const pill = $("connection");
            pill.className = "pill " + (s.connection || "");
            text("connection", s.connection || "…");
            text("device", s.device || "");
            text("status-device", s.device || "–");
            text("status-connection", (s.connection || "–") + (s.reason ? " (" + s.reason + ")" : "") + (s.baud ? " at " + s.baud + " baud" : ""));
            text("status-rate", s.rate_hz == null ? "–" : s.rate_hz + " Hz");
            text("status-sentences", s.sentences == null ? "–" : String(s.sentences));
            text("status-rejected", s.rejected_lines == null ? "–" : String(s.rejected_lines));
            const systems = (s.systems || []).map((x) => x.system + " " + x.used + "/" + x.in_view);
            text("status-systems", systems.length ? systems.join(", ") : "–");
            const c = s.corrections;
            $("status-corrections").hidden = $("status-corrections-label").hidden = !c;
            if (c) {
              const base = (c.station_id == null ? "" : ", base " + c.station_id)
                + (c.station_distance_m == null ? "" : " at " + (c.station_distance_m < 1000 ? Math.round(c.station_distance_m) + " m" : (c.station_distance_m / 1000).toFixed(1) + " km"));
              text("status-corrections", !c.connected || c.age_s == null ? c.source + ": " + (c.connected ? "waiting" : "not connected")
                : c.age_s.toFixed(1) + " s old, " + c.messages_per_s.toFixed(1) + "/s" + base);
            }
            const used = s.satellites_used, inView = s.satellites_in_view;
            const parts = [];
            if (used != null) parts.push(used + " used");
            if (inView != null) parts.push(inView + " in view");
            text("sats", parts.length ? parts.join(" / ") : "–");
          }

          // Satellites: sky plot and signal bars
          const systemColors = { GPS: "#1f6feb", GLONASS: "#d92d20", Galileo: "#12b76a", BeiDou: "#f79009", QZSS: "#7a5af8", NavIC: "#ee46bc" };
          function renderSky() {
            const sky = $("sky"), bars = $("bars");
            sky.replaceChildren(); bars.replaceChildren();
            for (const r of [100, 66.7, 33.3]) el("circle", { cx: 0, cy: 0, r: r, fill: "none", stroke: "#d0d5dd" }, sky);
            el("line", { x1: -100, y1: 0, x2: 100, y2: 0, stroke: "#eaecf0" }, sky);
            el("line", { x1: 0, y1: -100, x2: 0, y2: 100, stroke: "#eaecf0" }, sky);
            const north = el("text", { x: 0, y: -102, "text-anchor": "middle", "font-size": 10, fill: "#667085" }, sky);
            north.textContent = "N";
            const list = (satellites || []).filter((s) => s.el != null && s.az != null);
            for (const s of list) {
              const r = (90 - s.el) / 90 * 100, a = s.az * Math.PI / 180;
              const x = r * Math.sin(a), y = -r * Math.cos(a), color = systemColors[s.system] || "#667085";
              el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 6, fill: s.used ? color : "#fff", stroke: color, "stroke-width": 2, class: "satellite" }, sky);
              const label = el("text", { x: x.toFixed(1), y: (y + 16).toFixed(1), "text-anchor": "middle", "font-size": 8, fill: "#344054" }, sky);
              label.textContent = s.name;
            }
            // Signal bars: the strength in dB-Hz over each bar, the satellite under it; filled when used.
            const all = satellites || [], W = Math.max(300, all.length * 22), width = W / Math.max(all.length, 1);
            bars.setAttribute("viewBox", "0 0 " + W + " 110");
            bars.setAttribute("width", String(W));
            bars.style.display = all.length ? "" : "none";
            all.forEach((s, i) => {
              const h = Math.min(s.snr || 0, 55) / 55 * 70, color = systemColors[s.system] || "#667085", x = i * width + width / 2;
              el("rect", { x: (i * width + 2).toFixed(1), y: (84 - h).toFixed(1), width: Math.max(width - 4, 1).toFixed(1), height: h.toFixed(1), fill: s.used ? color : "#fff", stroke: color, "stroke-width": 1.5, class: "bar" }, bars);
              const value = el("text", { x: x.toFixed(1), y: (80 - h).toFixed(1), "text-anchor": "middle", "font-size": 9, fill: "#344054", class: "snr" }, bars);
              value.textContent = s.snr == null ? "–" : String(Math.round(s.snr));
              const name = el("text", { x: x.toFixed(1), y: 97, "text-anchor": "middle", "font-size": 9, fill: "#344054", class: "sat-name" }, bars);
              name.textContent = s.name;
            });
            // Why the sky is empty: a receiver that sends no GSV says which satellites it uses, never where they are.
            const note = $("sky-note");
            note.hidden = list.length > 0;
            if (!all.length) {
              const used = status && status.satellites_used;
              note.textContent = "No satellites in view: this receiver sends no GSV sentences" + (used ? " (its fix uses " + used + ")" : "") + ".";
            } else if (!list.length) note.textContent = "The receiver sends no elevations or azimuths: signal strengths only.";
            const systems = [...new Set(all.map((s) => s.system))];
            $("sky-legend").replaceChildren(...systems.map((system) => {
              const item = document.createElement("span"), swatch = document.createElement("i");
              swatch.className = "dot"; swatch.style.background = systemColors[system] || "#667085";
              item.append(swatch, system);
              return item;
            }), ...(all.length ? [(() => { const item = document.createElement("span"), swatch = document.createElement("i"); swatch.className = "hollow"; item.append(swatch, "in view, not used · bars in dB-Hz"); return item; })()] : []));
          }

          // Trips
          function renderTrips() {
            const body = $("trips").tBodies[0];
            body.replaceChildren();
            const list = (trips && trips.trips) || [];
            $("trips-empty").style.display = list.length ? "none" : "";
            for (let i = list.length - 1; i >= 0; i--) {
              const t = list[i], row = body.insertRow();
              row.dataset.index = i;
              if (selected === i) row.className = "selected";
              const cells = [clock(t.start.time), clock(t.end.time), duration(t.duration_s), (t.distance_m / 1000).toFixed(1) + " km", t.start.place || "–", t.end.place || "–"];
              cells.forEach((value, c) => { const cell = row.insertCell(); cell.textContent = value; if (c === 5) cell.className = "wide"; });
              row.addEventListener("click", () => { selected = selected === i ? null : i; setFollow(false); renderTrips(); renderMap(); fitTrack(); });
            }
          }

          // Map: Leaflet, the track colored by speed (or the selected trip alone), start, end, stops, the position.
          const map = makeMap("map", tiles, null);
          const trackLayer = L.layerGroup().addTo(map), markerLayer = L.layerGroup().addTo(map);
          // AIS: the vessels heard, each a dot with its name, a line where it will be in 6 minutes at its speed and
          // course, grey once not heard for 6 minutes; a click shows its static data.
          const vesselLayer = L.layerGroup().addTo(map);
          let vessels = (initial.vessels || {}).vessels || [], vesselsAt = Date.now();
          function renderVessels() {
            vesselLayer.clearLayers();
            const elapsed = (Date.now() - vesselsAt) / 1000;
            for (const v of vessels) {
              if (v.lat == null || v.lon == null) continue;
              const stale = v.age_s + elapsed > 360, colour = stale ? "#98a2b3" : "#0e9384", label = v.name || String(v.mmsi);
              const dot = L.circleMarker([v.lat, v.lon], { radius: 5, color: "#fff", weight: 1.5, fillColor: colour, fillOpacity: 1, className: "vessel" + (stale ? " stale" : "") }).addTo(vesselLayer);
              // A text node, never HTML: a vessel names itself over the air.
              dot.bindTooltip(document.createTextNode(label), { permanent: true, direction: "right", offset: [6, 0], className: "vessel-label" });
              const rows = [["MMSI", v.mmsi], ["Name", v.name], ["Call sign", v.callsign], ["Type", v.shiptype], ["Size", v.length_m != null ? v.length_m + " × " + v.beam_m + " m" : null], ["Destination", v.destination], ["Speed", v.speed_knots != null ? v.speed_knots + " kn" : null], ["Course", v.course != null ? v.course + "°" : null], ["Heard", Math.round(v.age_s + elapsed) + " s ago"]];
              const table = document.createElement("table");
              for (const [name, value] of rows) {
                if (value == null) continue;
                const row = table.insertRow(); row.insertCell().textContent = name; row.insertCell().textContent = String(value);
              }
              dot.bindPopup(table);
              if (v.speed_knots > 0.5 && v.course != null) {
                const metres = v.speed_knots * 1852 / 10, radians = v.course * Math.PI / 180;
                const end = [v.lat + metres * Math.cos(radians) / 111320, v.lon + metres * Math.sin(radians) / (111320 * Math.cos(v.lat * Math.PI / 180))];
                L.polyline([[v.lat, v.lon], end], { color: colour, weight: 2, interactive: false }).addTo(vesselLayer);
              }
            }
            const shown = vessels.filter((v) => v.lat != null).length;
            if (shown) document.body.dataset.vessels = String(shown); else delete document.body.dataset.vessels;
          }
          let follow = false, positionMarkers = null;
          const Buttons = L.Control.extend({ onAdd: function () {
            const bar = L.DomUtil.create("div", "leaflet-bar leaflet-control map-buttons");
            for (const [id, label, title] of [["follow", "Follow", "Keep the position in view"], ["fit", "Fit", "Show the whole track"]]) {
              const button = L.DomUtil.create("a", "", bar);
              Object.assign(button, { id: id, href: "#", title: title, textContent: label });
              button.setAttribute("role", "button");
            }
            L.DomEvent.disableClickPropagation(bar);
            L.DomEvent.on(bar.firstChild, "click", (e) => { L.DomEvent.preventDefault(e); setFollow(!follow); });
            L.DomEvent.on(bar.lastChild, "click", (e) => { L.DomEvent.preventDefault(e); setFollow(false); fitTrack(); });
            return bar;
          } });
          new Buttons({ position: "topleft" }).addTo(map);
          map.on("dragstart", () => setFollow(false));
          map.on("relabel", () => hidePlacesUnder(map, furnitureBoxes(map)));
          function setFollow(on) {
            follow = on;
            $("follow").classList.toggle("active", on);
            $("follow").setAttribute("aria-pressed", String(on));
            if (on) keepInView();
          }
          function keepInView() {
            if (!follow || !position || position.lon == null) return;
            const here = L.latLng(position.lat, position.lon);
            if (!map.getBounds().pad(-0.15).contains(here)) map.panTo(here);
          }
          function shownRange() {
            const trip = selected == null ? null : trips.trips[selected];
            return trip ? [Date.parse(trip.start.time), Date.parse(trip.end.time)] : [-Infinity, Infinity];
          }
          function fitTrack() {
            const [from, to] = shownRange(), bounds = L.latLngBounds([]);
            for (const segment of track) for (const p of segment.points) if (p[2] >= from && p[2] <= to) bounds.extend([p[1], p[0]]);
            if (selected == null && !dayShown && position && position.lon != null) bounds.extend([position.lat, position.lon]);
            // No track of our own (an AIS log, a shore station): the vessels heard.
            if (!bounds.isValid()) for (const v of vessels) if (v.lat != null) bounds.extend([v.lat, v.lon]);
            if (bounds.isValid()) map.fitBounds(bounds, { padding: [30, 30], maxZoom: 16, animate: false });
            else map.setView([20, 0], 2, { animate: false });
          }
          function renderMap() {
            trackLayer.clearLayers(); markerLayer.clearLayers(); positionMarkers = null;
            const [from, to] = shownRange();
            $("map-note").textContent = selected != null ? "trip " + (selected + 1) + " of " + trips.trips.length + " (click again for the whole day)" : "";
            drawSpeedLines(trackLayer, track.map((segment) => segment.points.filter((p) => p[2] >= from && p[2] <= to)));
            const points = track.flatMap((s) => s.points).filter((p) => p[2] >= from && p[2] <= to);
            if (points.length) {
              const start = L.circleMarker([points[0][1], points[0][0]], { radius: 7, color: "#fff", weight: 2, fillColor: "#12b76a", fillOpacity: 1 }).addTo(markerLayer);
              start.getElement().id = "start-marker";
              const last = points[points.length - 1];
              L.marker([last[1], last[0]], { icon: L.divIcon({ className: "map-marker", html: '<div class="end-marker-icon" id="end-marker"></div>', iconSize: [12, 12] }), title: "end", keyboard: false }).addTo(markerLayer);
            }
            for (const stop of (trips && trips.stops) || []) {
              if (stop.lat == null) continue;
              const t0 = Date.parse(stop.start), t1 = Date.parse(stop.end);
              if (t1 < from || t0 > to) continue;
              L.marker([stop.lat, stop.lon], { icon: L.divIcon({ className: "map-marker stop", html: '<div class="stop-icon">P</div>', iconSize: [18, 18] }), title: (stop.place || "stop") + ", " + duration(stop.duration_s), keyboard: false }).addTo(markerLayer);
            }
            if (selected == null && !dayShown && position && position.lon != null) {
              const here = [position.lat, position.lon];
              const halo = L.circleMarker(here, { radius: 10, stroke: false, fillColor: "#1f6feb", fillOpacity: 0.25, interactive: false }).addTo(markerLayer);
              const marker = L.circleMarker(here, { radius: 6, color: "#fff", weight: 2, fillColor: "#1f6feb", fillOpacity: 1 }).addTo(markerLayer);
              halo.getElement().id = "position-halo"; marker.getElement().id = "position-marker";
              positionMarkers = [halo, marker];
            }
          }
          function moveMarker() {
            if (!positionMarkers || selected != null || dayShown || !position || position.lon == null) return;
            for (const marker of positionMarkers) marker.setLatLng([position.lat, position.lon]);
            keepInView();
          }

          // Track: loaded once, then what is newer than the last point, at most every 2 s.
          function mergeTrack(collection) {
            for (const feature of collection.features) {
              const g = feature.geometry, props = feature.properties;
              const coordinates = g.type === "Point" ? [g.coordinates] : g.coordinates;
              const points = coordinates.map((c, i) => [c[0], c[1], Date.parse(props.times[i]), props.speeds[i]]);
              if (props.continues && track.length) track[track.length - 1].points.push(...points);
              else track.push({ points: points });
            }
          }
          function lastTrackTime() {
            const segment = track[track.length - 1];
            return segment ? segment.points[segment.points.length - 1][2] : null;
          }
          function refreshTrack() {
            trackTimer = null;
            const last = lastTrackTime();
            const query = last == null ? "" : "?since=" + new Date(last + 1).toISOString();
            fetch("/api/track" + query).then((r) => r.json()).then((collection) => { mergeTrack(collection); renderMap(); });
          }
          function scheduleTrack() { if (!trackTimer) trackTimer = setTimeout(refreshTrack, 2000); }

          renderNow(); renderStatus(); renderSky(); renderTrips();
          // The track so far came with the page (/track.js, loaded before this script), so the page is whole
          // at its load event; without it (a failed load), it is fetched.
          function begin() {
            const named = map.begin(fitTrack);
            renderMap();
            setFollow(!named && !dayShown && !!status && status.connection !== "ended");
            if (dayShown) beginReplay();
            document.body.dataset.ready = "1";
          }

          // Days gone by (--history): a day picked is this page with ?day=, its track and trips, replayed on a
          // timeline (play, pause, speed, scrub; ?at=hh:mm:ss starts there).
          if (initial.history) {
            $("days-panel").hidden = false;
            for (const d of (initial.days && initial.days.days) || []) {
              const option = document.createElement("option");
              option.value = d.day; option.defaultSelected = d.day === dayShown;
              option.textContent = d.day + " · " + (d.distance_m / 1000).toFixed(1) + " km · " + d.trips + (d.trips === 1 ? " trip" : " trips");
              $("day").appendChild(option);
            }
            $("day").addEventListener("change", () => { location.search = $("day").value ? "?day=" + $("day").value : ""; });
          }
          if (dayShown) $("map-panel").querySelector("h2").textContent = "Track of " + dayShown;
          const replay = makeReplay(map, clock);
          function replayPoints() { return track.flatMap((s) => s.points); }
          function beginReplay() {
            $("replay").hidden = false;
            const at = new URLSearchParams(location.search).get("at");
            replay.show(replayPoints(), at ? Date.parse(dayShown + "T" + at + "Z") : null);
          }
          if (window.nmeaTrack) {
            mergeTrack(window.nmeaTrack);
            begin();
          } else {
            fetch("/api/track").then((r) => r.json()).then((collection) => { mergeTrack(collection); begin(); })
              .catch(() => { document.body.dataset.ready = "error"; });
          }

          const events = new EventSource("/api/events");
          events.addEventListener("position", (event) => {
            position = JSON.parse(event.data); positionAt = Date.now();
            renderNow();
            moveMarker();
            if (!position.provisional && !dayShown) scheduleTrack();
          });
          events.addEventListener("status", (event) => { status = JSON.parse(event.data); renderStatus(); if (!(satellites || []).length) renderSky(); });
          events.addEventListener("trip", (event) => { if (dayShown) return; trips = JSON.parse(event.data); renderTrips(); renderMap(); });
          setInterval(() => { renderAge(); }, 1000);
          let resized = null;
          window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(() => map.invalidateSize(), 150); });
          events.addEventListener("sky", (event) => { satellites = JSON.parse(event.data); renderSky(); });
          events.addEventListener("vessels", (event) => { vessels = JSON.parse(event.data).vessels; vesselsAt = Date.now(); renderVessels(); });
          renderVessels();
        })();
        </script>
        </body>
        </html>

        """#
}
