extension WebPage {
    /// The style of the map both pages draw: Leaflet's own (embedded), then the place labels, the markers and the
    /// controls of ours.
    static var mapStyle: String { Leaflet.style + ownMapStyle }

    private static let ownMapStyle = #"""
        .leaflet-container { background: #eef2f6; font: 12px/1.3 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        .place-label, .vehicle-label-icon, .map-marker { background: none; border: none; }
        .place-label::before { content: ""; position: absolute; left: -2px; top: -2px; width: 4px; height: 4px; border-radius: 50%; background: #98a2b3; }
        .place-label .place { position: absolute; transform: translate(-50%, calc(-100% - 3px)); white-space: nowrap; color: #475467; font-size: 11px; text-shadow: 0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff; pointer-events: none; }
        .place-label.rank-1 .place { font-size: 14px; font-weight: 600; color: #344054; }
        .place-label.rank-2 .place { font-size: 12px; color: #3d4758; }
        .place-label .place.hidden, .vehicle-label.hidden { visibility: hidden; }
        .north-arrow { background: rgba(255,255,255,.85); border-radius: 4px; padding: 2px 4px; line-height: 0; }
        .map-buttons a { width: auto !important; padding: 0 8px; font: 600 12px/30px system-ui, sans-serif; }
        .map-buttons a.active { background: #dbe8ff; color: #1d3c8f; }
        .end-marker-icon { width: 12px; height: 12px; background: #d92d20; border: 2px solid #fff; box-sizing: border-box; }
        .stop-icon { width: 18px; height: 18px; border-radius: 50%; background: #1d3c8f; border: 2px solid #fff; color: #fff; font: 700 9px/14px system-ui, sans-serif; text-align: center; box-sizing: border-box; }
        .vehicle-label { position: absolute; white-space: nowrap; font-size: 12px; color: #1d2330; background: rgba(255,255,255,.85); border-radius: 3px; padding: 0 3px; line-height: 16px; }
        """#

    /// The map helpers both pages' scripts share, on Leaflet (`L`, loaded from ``Leaflet/path`` before them): the
    /// map with its scale, north arrow and attribution, tiles when the server has them, the offline places as
    /// labels (`/api/places`, the rule `nmea plot` shares), the view in the address (`#map=ZOOM/LAT/LON`), and
    /// labels that keep out of each other's way and the map's controls.
    static let mapScript = #"""
        function speedColor(speed) {
          if (speed == null) return "#667085";
          const kmh = speed * 3.6;
          return kmh < 10 ? "#2e90fa" : kmh < 30 ? "#12b76a" : kmh < 60 ? "#eaaa08" : kmh < 90 ? "#f79009" : "#d92d20";
        }
        function clientBox(element) { const r = element.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; }
        function recordBox(element) { const b = clientBox(element); element.dataset.box = [b.x, b.y, b.w, b.h].map((v) => v.toFixed(1)).join(","); return b; }
        function overlaps(a, b, gap) { gap = gap || 0; return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap; }
        // The map: Leaflet with a metric scale, a north arrow, attribution, the tiles the server names (`tiles`:
        // {url, attribution, minzoom, maxzoom}) and the offline places. `onMoved` is called after each move; the
        // map fires "relabel" when its places or its size changed.
        function makeMap(id, tiles, onMoved) {
          // No fading in of tiles: what is loaded is shown as it is (and a screenshot shows it).
          const map = L.map(id, { zoomControl: true, minZoom: 1, maxZoom: 19, fadeAnimation: false });
          map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
          map.attributionControl.addAttribution('Places: <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)');
          if (tiles) {
            L.tileLayer(tiles.url, { attribution: tiles.attribution || "", minZoom: 1, maxZoom: 19, minNativeZoom: tiles.minzoom || 0, maxNativeZoom: tiles.maxzoom == null ? 19 : tiles.maxzoom }).addTo(map);
          }
          L.control.scale({ imperial: false, maxWidth: 140 }).addTo(map);
          const North = L.Control.extend({ onAdd: function () {
            const div = L.DomUtil.create("div", "leaflet-control north-arrow");
            div.id = "north-arrow"; div.title = "North is up";
            div.innerHTML = '<svg viewBox="-12 -16 24 34" width="22" height="31" aria-label="North"><path d="M0,-14 L7,8 L0,3 L-7,8 Z" fill="#1d2330"/><text x="0" y="17" text-anchor="middle" font-size="10" fill="#1d2330">N</text></svg>';
            return div;
          } });
          new North({ position: "topright" }).addTo(map);
          map.createPane("places").style.zIndex = 450;
          const placeLayer = L.layerGroup().addTo(map);
          let request = 0;
          function query() {
            const b = map.getBounds(), clamp = (v, limit) => Math.max(-limit, Math.min(limit, v));
            let west = b.getWest(), east = b.getEast();
            if (east - west >= 360) { west = -180; east = 180; }
            while (west < -180) west += 360;
            while (east > 180) east -= 360;
            return "bbox=" + [west, clamp(b.getSouth(), 85), east, clamp(b.getNorth(), 85)].map((v) => v.toFixed(5)).join(",") + "&zoom=" + map.getZoom();
          }
          function drawPlaces(document_, view) {
            placeLayer.clearLayers();
            map.getContainer().dataset.view = view;
            for (const p of document_.places) {
              const node = document.createElement("div");
              node.className = "place";
              node.textContent = p.name;
              Object.assign(node.dataset, { name: p.name, lat: p.lat, lon: p.lon, population: p.population });
              L.marker([p.lat, p.lon], { icon: L.divIcon({ className: "place-label rank-" + p.rank, html: node, iconSize: null }), pane: "places", interactive: false, keyboard: false }).addTo(placeLayer);
            }
            map.fire("relabel");
          }
          // The first places come as a script (/places.js), which the page's load waits for; later ones by fetch.
          function loadPlaces(first) {
            const id = ++request, view = query();
            if (first) {
              window.nmeaPlaces = (document_) => { if (id === request) drawPlaces(document_, view); };
              const script = document.createElement("script");
              script.src = "/places.js?" + view;
              document.head.appendChild(script);
            } else {
              fetch("/api/places?" + view).then((r) => r.json()).then((document_) => { if (id === request) drawPlaces(document_, view); });
            }
          }
          // A page lays its own labels out again on "relabel": new places, or a new size (a phone turned).
          map.on("resize", () => { map.fire("relabel"); if (started) loadPlaces(false); });
          // The page's layout may move the map (a panel shown, a table grown): Leaflet then measures it again.
          if (window.ResizeObserver) new ResizeObserver(() => map.invalidateSize({ pan: false })).observe(map.getContainer());
          let started = false;
          map.on("moveend", () => {
            if (!started) return;
            const c = map.getCenter();
            history.replaceState(null, "", "#map=" + map.getZoom() + "/" + c.lat.toFixed(5) + "/" + c.lng.toFixed(5));
            loadPlaces(false);
            if (onMoved) onMoved();
          });
          // The view the address names, else `fit()`'s; then the first places.
          map.begin = (fit) => {
            const named = /^#map=(\d+)\/(-?[\d.]+)\/(-?[\d.]+)$/.exec(location.hash);
            if (named) map.setView([+named[2], +named[3]], +named[1], { animate: false });
            else fit();
            started = true;
            loadPlaces(true);
            return named != null;
          };
          return map;
        }
        // The boxes (in the window) of the map's controls: labels keep out of them.
        function furnitureBoxes(map) {
          const boxes = [];
          for (const control of map.getContainer().querySelectorAll(".leaflet-control")) {
            control.dataset.furniture = "1";
            boxes.push(recordBox(control));
          }
          return boxes;
        }
        // Places each label (`{node, anchor: {x, y} in the window, radius}`) at the first of several spots around its
        // anchor that meets no label placed before, no obstacle and stays in `area`; a label with no such spot is
        // hidden (its marker keeps a title). Writes each label's box as `data-box`.
        function declutter(labels, obstacles, area) {
          const placed = [];
          for (const label of labels) {
            const node = label.node, w = node.offsetWidth, h = node.offsetHeight, r = label.radius + 4;
            node.classList.remove("hidden");
            const spots = [];
            for (const ring of [0, 1, 2, 3]) {
              const d = r + ring * (h + 4);
              spots.push([d, -h / 2], [-d - w, -h / 2], [-w / 2, -d - h], [-w / 2, d], [d, -d - h / 2], [d, d - h / 2], [-d - w, -d - h / 2], [-d - w, d - h / 2]);
            }
            let chosen = null;
            for (const [dx, dy] of spots) {
              const box = { x: label.anchor.x + dx, y: label.anchor.y + dy, w: w, h: h };
              if (box.x < area.x || box.y < area.y || box.x + w > area.x + area.w || box.y + h > area.y + area.h) continue;
              if (placed.some((b) => overlaps(b, box, 2)) || obstacles.some((b) => overlaps(b, box, 2))) continue;
              chosen = [dx, dy, box];
              break;
            }
            if (!chosen) { node.classList.add("hidden"); node.dataset.box = ""; continue; }
            node.style.left = chosen[0].toFixed(1) + "px";
            node.style.top = chosen[1].toFixed(1) + "px";
            placed.push(chosen[2]);
            recordBox(node);
          }
          return placed;
        }
        // A track's segments (each a list of [lon, lat, timeMs, speed]) on `layer`, colored by speed: a line per run
        // of one color, each with the class `segment segment-N`; a lone point as a dot.
        function drawSpeedLines(layer, segments) {
          segments.forEach((points, index) => {
            let run = [], color = null;
            const flush = () => { if (run.length > 1) L.polyline(run, { color: color, weight: 4, opacity: 1, lineJoin: "round", lineCap: "round", interactive: false, className: "segment segment-" + index }).addTo(layer); };
            for (const p of points) {
              const c = speedColor(p[3]);
              if (c !== color) { flush(); const last = run[run.length - 1]; run = last ? [last] : []; color = c; }
              run.push([p[1], p[0]]);
            }
            flush();
            if (run.length === 1 && points.length === 1) L.circleMarker(run[0], { radius: 3, stroke: false, fillColor: color, fillOpacity: 1, className: "segment segment-" + index }).addTo(layer);
          });
        }
        // A day's replay: a marker moving along `points` ([lon, lat, timeMs, speed]) with Play, Pause, a speed and a
        // slider (#play, #replay-speed, #scrub, #replay-time); `show(points, at)` starts it at `at` (or the start).
        function makeReplay(map, clock) {
          const $ = (id) => document.getElementById(id);
          const replay = { points: [], at: null, timer: null, marker: null };
          function pointAt(time) {
            const points = replay.points, last = points[points.length - 1];
            if (time <= points[0][2]) return points[0];
            if (time >= last[2]) return last;
            let low = 0, high = points.length - 1;
            while (high - low > 1) { const middle = (low + high) >> 1; if (points[middle][2] <= time) low = middle; else high = middle; }
            const a = points[low], b = points[high], f = (time - a[2]) / Math.max(1, b[2] - a[2]);
            return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, time, b[3]];
          }
          function set(time) {
            const points = replay.points;
            if (!points.length) return;
            const start = points[0][2], end = points[points.length - 1][2];
            replay.at = Math.max(start, Math.min(end, time));
            const p = pointAt(replay.at);
            if (!replay.marker) {
              replay.marker = L.circleMarker([p[1], p[0]], { radius: 8, color: "#fff", weight: 3, fillColor: "#7a5af8", fillOpacity: 1 }).addTo(map);
              replay.marker.getElement().id = "replay-marker";
            } else replay.marker.setLatLng([p[1], p[0]]);
            Object.assign(replay.marker.getElement().dataset, { time: new Date(replay.at).toISOString(), lat: p[1].toFixed(6), lon: p[0].toFixed(6) });
            $("scrub").value = String(Math.round((replay.at - start) / Math.max(1, end - start) * 1000));
            $("replay-time").textContent = clock(new Date(replay.at).toISOString()) + (p[3] == null ? "" : " · " + (p[3] * 3.6).toFixed(0) + " km/h");
            if (replay.at >= end) pause();
          }
          function pause() { clearInterval(replay.timer); replay.timer = null; $("play").textContent = "Play"; }
          function play() {
            const points = replay.points;
            if (!points.length) return;
            if (replay.at == null || replay.at >= points[points.length - 1][2]) replay.at = points[0][2];
            $("play").textContent = "Pause";
            replay.timer = setInterval(() => set(replay.at + 100 * Number($("replay-speed").value)), 100);
          }
          $("play").addEventListener("click", () => { if (replay.timer) pause(); else play(); });
          $("scrub").addEventListener("input", () => {
            const points = replay.points;
            if (points.length) set(points[0][2] + (points[points.length - 1][2] - points[0][2]) * Number($("scrub").value) / 1000);
          });
          replay.show = (points, at) => {
            pause();
            replay.points = points;
            replay.at = null;
            if (!points.length) { if (replay.marker) { replay.marker.remove(); replay.marker = null; } return; }
            set(at == null ? points[0][2] : at);
          };
          return replay;
        }
        // Hides the place labels that a page's own label or a control covers, or the map's edge cuts.
        function hidePlacesUnder(map, boxes) {
          const area = clientBox(map.getContainer());
          for (const node of map.getContainer().querySelectorAll(".place-label .place")) {
            node.classList.remove("hidden");
            const box = clientBox(node);
            const inside = box.x >= area.x && box.y >= area.y && box.x + box.w <= area.x + area.w && box.y + box.h <= area.y + area.h;
            if (!inside || boxes.some((b) => overlaps(b, box, 1))) node.classList.add("hidden");
          }
        }
        """#
}
