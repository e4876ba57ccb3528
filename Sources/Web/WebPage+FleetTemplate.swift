extension WebPage {
    /// The fleet's page: every vehicle's last position and the geofences on a map, the vehicles in a table, the
    /// trips and the latest geofence events. `{{fleet}}` is the state for the script
    /// (`{"vehicles":…,"trips":…,"fences":…,"events":…}`), `{{rows}}` the vehicle rows rendered on the server.
    static let fleetTemplate = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>nmea · fleet</title>
        <style>
        {{style}}
        #fleet-map { width: 100%; height: 460px; display: block; background: #eef2f6; border-radius: 6px; }
        #vehicles-panel, #fleet-trips-panel { overflow-x: auto; }
        </style>
        </head>
        <body data-ready="0">
        <header><h1>nmea fleet</h1><span id="database" class="pill">…</span><span id="refreshed" class="muted"></span></header>
        <main>
        <section id="map-panel"><h2>Last positions</h2>
        <svg id="fleet-map" viewBox="0 0 800 460" preserveAspectRatio="xMidYMid meet" role="img" aria-label="Vehicles map"></svg>
        </section>
        <section id="vehicles-panel"><h2>Vehicles</h2>
        <table id="vehicles"><thead><tr><th>Vehicle</th><th>Last fix</th><th>Age</th><th>Place</th><th class="wide">km/h</th></tr></thead>
        <tbody>{{rows}}</tbody></table>
        </section>
        <section id="trips-panel"><h2>Trips</h2>
        <table id="fleet-trips"><thead><tr><th>Vehicle</th><th>Start</th><th>End</th><th>Duration</th><th>Distance</th><th>From</th><th class="wide">To</th></tr></thead><tbody></tbody></table>
        <p id="trips-empty" class="muted">No trip yet.</p>
        </section>
        <section id="geofence-events-panel"><h2>Geofence events</h2>
        <table id="geofence-events"><thead><tr><th>Time</th><th>Vehicle</th><th>Event</th><th>Fence</th></tr></thead><tbody></tbody></table>
        <p id="geofence-events-empty" class="muted">No geofence event yet.</p>
        </section>
        </main>
        <script id="initial" type="application/json">{{fleet}}</script>
        <script>
        "use strict";
        {{map-script}}
        (function () {
          const $ = (id) => document.getElementById(id);
          let fleet = JSON.parse($("initial").textContent), selected = null, loadedAt = Date.now();
          const tiles = {{tiles}};
          function clock(iso) { return iso ? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "") + " UTC" : "–"; }
          function duration(seconds) {
            const s = Math.round(seconds), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
            return d > 0 ? d + " d " + h + " h" : h > 0 ? h + " h " + String(m).padStart(2, "0") + " min" : m + " min " + String(s % 60).padStart(2, "0") + " s";
          }
          function vehicles() { return (fleet.vehicles && fleet.vehicles.vehicles) || []; }
          function trips() { return (fleet.trips && fleet.trips.trips) || []; }
          function fences() { return (fleet.fences && fleet.fences.features) || []; }
          function fenceEvents() { return (fleet.events && fleet.events.events) || []; }
          function renderFenceEvents() {
            const body = $("geofence-events").tBodies[0];
            body.replaceChildren();
            const list = fenceEvents().filter((e) => selected == null || e.vehicle === selected).slice().reverse();
            $("geofence-events-empty").style.display = list.length ? "none" : "";
            for (const e of list) {
              const row = body.insertRow();
              [clock(e.time), e.vehicle, e.kind, e.fence].forEach((value) => { row.insertCell().textContent = value; });
            }
          }
          function renderVehicles() {
            const body = $("vehicles").tBodies[0];
            body.replaceChildren();
            for (const v of vehicles()) {
              const row = body.insertRow();
              row.dataset.vehicle = v.vehicle;
              if (selected === v.vehicle) row.className = "selected";
              const age = v.age_s + (Date.now() - loadedAt) / 1000;
              [v.vehicle, clock(v.time), duration(age), v.place || "–", v.speed_kmh == null ? "–" : v.speed_kmh.toFixed(1)]
                .forEach((value, c) => { const cell = row.insertCell(); cell.textContent = value; if (c === 4) cell.className = "wide"; });
              row.addEventListener("click", () => { selected = selected === v.vehicle ? null : v.vehicle; renderAll(); });
            }
          }
          function renderTrips() {
            const body = $("fleet-trips").tBodies[0];
            body.replaceChildren();
            const list = trips().filter((t) => selected == null || t.vehicle === selected).slice().reverse();
            $("trips-empty").style.display = list.length ? "none" : "";
            for (const t of list) {
              const row = body.insertRow();
              [t.vehicle, clock(t.start.time), clock(t.end.time), duration(t.duration_s), (t.distance_m / 1000).toFixed(1) + " km", t.start.place || "–", t.end.place || "–"]
                .forEach((value, c) => { const cell = row.insertCell(); cell.textContent = value; if (c === 6) cell.className = "wide"; });
            }
          }
          function renderMap() {
            // One screen pixel a unit, so labels stay 12 px on a phone as on a desktop.
            const svg = $("fleet-map"), W = Math.max(300, Math.round(svg.clientWidth || 800)), H = Math.round(W * 0.575), pad = 40;
            svg.setAttribute("viewBox", "0 0 " + W + " " + H);
            svg.replaceChildren();
            const shown = vehicles().filter((v) => v.lat != null && v.lon != null);
            const rings = fences().map((f) => ({ name: f.properties.name, ring: ((f.geometry && f.geometry.coordinates) || [[]])[0] || [] }));
            if (!shown.length && !rings.length) return;
            let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
            const include = (lon, lat) => { const [x, y] = project(lon, lat); minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y); };
            for (const v of shown) include(v.lon, v.lat);
            for (const r of rings) for (const [lon, lat] of r.ring) include(lon, lat);
            const span = Math.max(maxX - minX, maxY - minY, 2e-5);
            const scale = Math.min((W - 2 * pad) / Math.max(maxX - minX, span * 0.05), (H - 2 * pad) / Math.max(maxY - minY, span * 0.05));
            const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
            if (tiles) drawTiles(svg, tiles, scale, cx, cy, W, H);
            for (const r of rings) {
              const points = r.ring.map(([lon, lat]) => { const [px, py] = project(lon, lat); return (W / 2 + (px - cx) * scale).toFixed(1) + "," + (H / 2 + (py - cy) * scale).toFixed(1); });
              const g = el("g", { class: "fence", "data-fence": r.name }, svg);
              el("polygon", { points: points.join(" "), fill: "rgba(210,120,20,0.12)", stroke: "#d2781a", "stroke-width": 1.5 }, g);
              const title = el("title", {}, g); title.textContent = r.name;
            }
            for (const v of shown) {
              const [px, py] = project(v.lon, v.lat), x = W / 2 + (px - cx) * scale, y = H / 2 + (py - cy) * scale;
              const g = el("g", { class: "vehicle", "data-vehicle": v.vehicle }, svg);
              el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: selected === v.vehicle ? 9 : 6, fill: "#1f6feb", stroke: "#fff", "stroke-width": 2 }, g);
              const label = el("text", { x: (x + 10).toFixed(1), y: (y + 4).toFixed(1), "font-size": 12, fill: "#1d2330" }, g);
              label.textContent = v.vehicle;
              const title = el("title", {}, g); title.textContent = v.vehicle + (v.place ? ", " + v.place : "");
            }
            drawScaleBar(svg, scale, cy, H);
            drawNorthArrow(svg, W);
          }
          function renderStatus(status) {
            const ok = status.database === "ok";
            $("database").className = "pill " + (ok ? "connected" : "unplugged");
            $("database").textContent = ok ? "database ok" : status.database;
            $("refreshed").textContent = status.refreshed ? "read " + clock(status.refreshed) : "";
          }
          function renderAll() { renderVehicles(); renderTrips(); renderFenceEvents(); renderMap(); }
          renderAll();
          document.body.dataset.ready = "1";
          const events = new EventSource("/api/events");
          let resized = null;
          window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(renderAll, 150); });
          events.addEventListener("fleet", (event) => { fleet = JSON.parse(event.data); loadedAt = Date.now(); renderAll(); });
          events.addEventListener("status", (event) => renderStatus(JSON.parse(event.data)));
          setInterval(renderVehicles, 10000);
        })();
        </script>
        </body>
        </html>

        """#
}
