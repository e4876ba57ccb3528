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
        {{map-style}}
        #fleet-map { width: 100%; height: 460px; border-radius: 6px; }
        #vehicles-panel, #fleet-trips-panel { overflow-x: auto; }
        </style>
        </head>
        <body data-ready="0" class="fleet">
        <header><h1>nmea fleet</h1><span id="database" class="pill">…</span><span id="refreshed" class="muted"></span></header>
        <main>
        <section id="map-panel"><h2>Last positions</h2>
        <div id="fleet-map" role="region" aria-label="Vehicles map"></div>
        </section>
        <section id="vehicles-panel"><h2>Vehicles</h2>
        <table id="vehicles"><thead><tr><th>Vehicle</th><th>Last fix</th><th>Age</th><th>Place</th><th class="wide">km/h</th></tr></thead>
        <tbody>{{rows}}</tbody></table>
        </section>
        {{days-panel}}
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
        <script src="/leaflet.js"></script>
        <script src="{{day-script}}"></script>
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
          // The map: Leaflet, fitted to the vehicles and fences once (then the user's, or Fit), each vehicle a dot
          // with its name placed clear of the other names, the dots and the map's controls.
          $("days-panel").hidden = false;  // before the map is laid out: the layout does not move under it
          const map = makeMap("fleet-map", tiles, () => placeLabels());
          const fenceLayer = L.layerGroup().addTo(map), vehicleLayer = L.layerGroup().addTo(map);
          const Buttons = L.Control.extend({ onAdd: function () {
            const bar = L.DomUtil.create("div", "leaflet-bar leaflet-control map-buttons");
            const fit = L.DomUtil.create("a", "", bar);
            Object.assign(fit, { id: "fit", href: "#", title: "Show every vehicle", textContent: "Fit" });
            fit.setAttribute("role", "button");
            L.DomEvent.disableClickPropagation(bar);
            L.DomEvent.on(fit, "click", (e) => { L.DomEvent.preventDefault(e); fitFleet(); });
            return bar;
          } });
          new Buttons({ position: "topleft" }).addTo(map);
          let labels = [];
          function shown() { return vehicles().filter((v) => v.lat != null && v.lon != null); }
          function fitFleet() {
            const bounds = L.latLngBounds([]);
            for (const v of shown()) bounds.extend([v.lat, v.lon]);
            for (const f of fences()) for (const [lon, lat] of ((f.geometry && f.geometry.coordinates) || [[]])[0] || []) bounds.extend([lat, lon]);
            if (bounds.isValid()) map.fitBounds(bounds, { paddingTopLeft: [60, 50], paddingBottomRight: [110, 50], maxZoom: 15, animate: false });
            else map.setView([20, 0], 2, { animate: false });
          }
          function renderMap() {
            fenceLayer.clearLayers(); vehicleLayer.clearLayers(); labels = [];
            for (const f of fences()) {
              const ring = ((f.geometry && f.geometry.coordinates) || [[]])[0] || [];
              const polygon = L.polygon(ring.map(([lon, lat]) => [lat, lon]), { color: "#d2781a", weight: 1.5, fillColor: "#d2781a", fillOpacity: 0.12, className: "fence" }).addTo(fenceLayer);
              polygon.bindTooltip(f.properties.name);
              polygon.getElement().dataset.fence = f.properties.name;
            }
            for (const v of shown()) {
              const radius = selected === v.vehicle ? 9 : 6;
              const dot = L.circleMarker([v.lat, v.lon], { radius: radius, color: "#fff", weight: 2, fillColor: "#1f6feb", fillOpacity: 1, className: "vehicle" }).addTo(vehicleLayer);
              dot.getElement().dataset.vehicle = v.vehicle;
              dot.bindTooltip(v.vehicle + (v.place ? ", " + v.place : ""));
              dot.on("click", () => { selected = selected === v.vehicle ? null : v.vehicle; renderAll(); });
              const node = document.createElement("div");
              node.className = "vehicle-label"; node.textContent = v.vehicle; node.dataset.vehicle = v.vehicle;
              L.marker([v.lat, v.lon], { icon: L.divIcon({ className: "vehicle-label-icon", html: node, iconSize: null }), interactive: false, keyboard: false }).addTo(vehicleLayer);
              labels.push({ node: node, latlng: L.latLng(v.lat, v.lon), radius: radius });
            }
            placeLabels();
          }
          // Names clear of each other, of every dot and of the controls; the places under them hidden.
          function placeLabels() {
            const container = map.getContainer(), origin = clientBox(container);
            const furniture = furnitureBoxes(map);
            const dots = labels.map((l) => { const p = map.latLngToContainerPoint(l.latlng); return { x: origin.x + p.x - l.radius - 2, y: origin.y + p.y - l.radius - 2, w: 2 * l.radius + 4, h: 2 * l.radius + 4 }; });
            const placed = declutter(labels.map((l) => { const p = map.latLngToContainerPoint(l.latlng); return { node: l.node, anchor: { x: origin.x + p.x, y: origin.y + p.y }, radius: l.radius }; }), furniture.concat(dots), origin);
            hidePlacesUnder(map, placed.concat(furniture, dots));
          }
          map.on("relabel", () => placeLabels());

          // A vehicle's days (those its trips started on): a day picked shows its stored positions, replayed.
          // ?vehicle=…&day=…[&at=hh:mm:ss] opens on one (its track came with the page, /day.js, once read).
          const dayLayer = L.layerGroup().addTo(map), replay = makeReplay(map, clock);
          let dayShown = null;
          function renderDays() {
            const select = $("day"), list = ((fleet.days && fleet.days.days) || []).filter((d) => d.vehicle === selected);
            select.replaceChildren(new Option(selected ? "Days of " + selected : "Pick a vehicle for its days", ""));
            for (const d of list) {
              const option = new Option(d.day + " · " + (d.distance_m / 1000).toFixed(1) + " km · " + d.trips + (d.trips === 1 ? " trip" : " trips"), d.day);
              option.defaultSelected = !!dayShown && dayShown.vehicle === d.vehicle && dayShown.day === d.day;
              select.appendChild(option);
            }
          }
          function showDay(vehicle, day, collection, at) {
            dayLayer.clearLayers();
            dayShown = day && collection ? { vehicle: vehicle, day: day } : null;
            $("replay").hidden = !dayShown;
            if (!dayShown) { replay.show([]); return; }
            const segments = collection.features.map((f) => {
              const g = f.geometry, coordinates = g.type === "Point" ? [g.coordinates] : g.coordinates;
              return coordinates.map((c, i) => [c[0], c[1], Date.parse(f.properties.times[i]), f.properties.speeds[i]]);
            });
            drawSpeedLines(dayLayer, segments);
            const points = segments.flat();
            if (points.length) map.fitBounds(L.latLngBounds(points.map((p) => [p[1], p[0]])), { padding: [40, 40], maxZoom: 16, animate: false });
            replay.show(points, at);
          }
          function loadDay(vehicle, day) {
            if (!vehicle || !day) { showDay(null, null); return; }
            fetch("/api/track?vehicle=" + encodeURIComponent(vehicle) + "&day=" + day)
              .then((r) => (r.status === 202 ? null : r.json()))
              .then((collection) => {
                if (collection === null) setTimeout(() => loadDay(vehicle, day), 500);
                else if (collection.features) showDay(vehicle, day, collection, null);
              });
          }
          $("day").addEventListener("change", () => loadDay(selected, $("day").value));
          const address = new URLSearchParams(location.search);
          if (address.get("vehicle")) selected = address.get("vehicle");
          function renderStatus(status) {
            const ok = status.database === "ok";
            $("database").className = "pill " + (ok ? "connected" : "unplugged");
            $("database").textContent = ok ? "database ok" : status.database;
            $("refreshed").textContent = status.refreshed ? "read " + clock(status.refreshed) : "";
          }
          function renderAll() { renderVehicles(); renderTrips(); renderFenceEvents(); renderMap(); renderDays(); }
          map.begin(fitFleet);
          if (selected && address.get("day")) {
            const at = address.get("at");
            if (window.nmeaFleetDay) showDay(selected, address.get("day"), window.nmeaFleetDay, at ? Date.parse(address.get("day") + "T" + at + "Z") : null);
            else loadDay(selected, address.get("day"));
          }
          renderAll();
          document.body.dataset.ready = "1";
          const events = new EventSource("/api/events");
          let resized = null;
          window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(() => { map.invalidateSize(); placeLabels(); }, 150); });
          events.addEventListener("fleet", (event) => { fleet = JSON.parse(event.data); loadedAt = Date.now(); renderAll(); });
          events.addEventListener("status", (event) => renderStatus(JSON.parse(event.data)));
          setInterval(renderVehicles, 10000);
        })();
        </script>
        </body>
        </html>

        """#
}
