// The dashboard's two pages: self-contained HTML with inline CSS and JS (no build step, no CDN).
// Charts are inline SVG drawn by the few functions below. (No template literals inside the page's
// script, so this file's template strings need no escaping.)

const STYLE = `
:root { --bg:#0f1419; --panel:#171d24; --line:#2a333d; --text:#d8dee6; --dim:#8b96a3; --ok:#3fb950; --warn:#d29922; --bad:#f85149; --acc:#58a6ff; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background:var(--bg); color:var(--text); }
header { display:flex; align-items:center; gap:16px; padding:12px 20px; border-bottom:1px solid var(--line); }
header h1 { font-size:17px; margin:0; font-weight:600; }
header .sp { flex:1; }
main { padding:16px 20px; display:grid; gap:16px; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); }
section { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:12px 14px; min-width:0; }
section h2 { font-size:13px; text-transform:uppercase; letter-spacing:.06em; color:var(--dim); margin:0 0 10px; font-weight:600; }
.wide { grid-column: 1 / -1; }
.cards { display:flex; gap:12px; flex-wrap:wrap; }
.card { flex:1; min-width:140px; background:var(--bg); border:1px solid var(--line); border-radius:6px; padding:10px 12px; }
.card .v { font-size:26px; font-weight:600; font-variant-numeric: tabular-nums; }
.card .l { color:var(--dim); font-size:12px; }
table { width:100%; border-collapse:collapse; font-variant-numeric: tabular-nums; }
th, td { text-align:left; padding:5px 8px; border-bottom:1px solid var(--line); vertical-align:middle; white-space:nowrap; }
th { color:var(--dim); font-weight:500; font-size:12px; }
td.langs { white-space:normal; color:var(--dim); font-size:12px; }
.bar { position:relative; width:120px; height:14px; background:var(--bg); border:1px solid var(--line); border-radius:3px;
  display:inline-block; vertical-align:middle; overflow:hidden; }
.bar i { position:absolute; left:0; top:0; bottom:0; background:var(--acc); }
.bar i.hot { background:var(--warn); } .bar i.full { background:var(--bad); }
.num { display:inline-block; min-width:56px; margin-left:6px; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; border:1px solid var(--line); }
.healthy { color:var(--ok); border-color:var(--ok); } .unhealthy { color:var(--bad); border-color:var(--bad); }
.draining, .drained, .not_ready, .pending { color:var(--warn); border-color:var(--warn); } .revoked { color:var(--bad); border-color:var(--bad); }
.dim { color:var(--dim); }
#conn.live { color:var(--ok); } #conn.polling { color:var(--warn); } #conn.down { color:var(--bad); }
button, select, input { font:inherit; color:var(--text); background:var(--bg); border:1px solid var(--line); border-radius:5px; padding:5px 9px; }
button { cursor:pointer; } button:hover { border-color:var(--acc); }
button.danger:hover { border-color:var(--bad); color:var(--bad); }
form.row { display:flex; gap:8px; flex-wrap:wrap; align-items:center; margin:8px 0; }
input[type=url] { flex:1; min-width:260px; }
.secret { margin:8px 0; padding:8px 10px; border:1px solid var(--warn); border-radius:6px; background:#2a2110; word-break:break-all; }
.err { color:var(--bad); margin:6px 0; min-height:1em; }
svg text { fill:var(--dim); font-size:11px; }
.login { max-width:380px; margin:12vh auto; background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:24px; }
.login input { width:100%; margin:10px 0; }
`;

export function loginPage(error: string | null): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>codecell — operator login</title><style>${STYLE}</style></head><body>
<form class="login" method="post" action="/dashboard/login" autocomplete="off">
<h1 style="font-size:18px;margin:0 0 6px">codecell operator dashboard</h1>
<p class="dim">Sign in with the operator token (<code>OPERATOR_TOKEN</code>; locally <code>operator_token</code> in <code>.state/dev.json</code>).</p>
${error ? `<p class="err" id="login-error">${error.replace(/[<>&]/g, "")}</p>` : ""}
<input type="password" name="token" id="token" placeholder="operator token" required autofocus>
<button type="submit" id="login">Sign in</button>
</form></body></html>`;
}

const SCRIPT = `
"use strict";
var $ = function (id) { return document.getElementById(id); };
var last = null, ws = null, wsFailures = 0, pollTimer = null, projects = [];
function esc(v) { return String(v === null || v === undefined ? "-" : v).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }
function bar(n, max) {
  var f = max > 0 ? Math.min(1, n / max) : 0;
  var cls = f >= 1 ? "full" : f >= 0.8 ? "hot" : "";
  return '<span class="bar"><i class="' + cls + '" style="width:' + (f * 100).toFixed(1) + '%"></i></span>';
}
function setConn(state, text) { var c = $("conn"); c.className = state; c.textContent = text; }

function connect() {
  var proto = location.protocol === "https:" ? "wss:" : "ws:";
  try { ws = new WebSocket(proto + "//" + location.host + "/dashboard/ws"); } catch (e) { return fallback(); }
  ws.onopen = function () { wsFailures = 0; setConn("live", "live (WebSocket)"); stopPolling(); };
  ws.onmessage = function (ev) { try { var m = JSON.parse(ev.data); if (m.type === "snapshot") render(m.data); } catch (e) {} };
  ws.onclose = function () {
    ws = null; wsFailures++;
    if (wsFailures >= 3) fallback(); else setConn("down", "reconnecting…");
    setTimeout(connect, Math.min(5000, 500 * wsFailures));
  };
}
function fallback() {
  if (pollTimer) return;
  setConn("polling", "live (polling)");
  pollTimer = setInterval(poll, 1000); poll();
}
function stopPolling() { if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } }
function poll() {
  fetch("/dashboard/api/snapshot", { credentials: "same-origin" }).then(function (r) {
    if (r.status === 401) { location.href = "/dashboard"; return null; }
    return r.json();
  }).then(function (s) { if (s) render(s); }).catch(function () { setConn("down", "edge unreachable"); });
}

function render(s) {
  last = s;
  $("updated").textContent = "updated " + new Date(s.generated_at).toLocaleTimeString();
  var inflight = 0, rpm = 0, r429 = 0;
  s.keys.forEach(function (k) { inflight += k.in_flight; rpm += k.requests_last_minute; r429 += k.rejected_rate_limit + k.rejected_concurrency; });
  var used = 0; s.nodes.forEach(function (n) { used += n.in_flight; });
  $("c-queue").textContent = s.queue_depth; $("c-queue-cap").textContent = "queue depth (capacity " + s.limits.queue_capacity + ")";
  $("c-nodes").textContent = s.fleet.ready_nodes + " / " + s.nodes.length;
  $("c-slots").textContent = used + " / " + s.fleet.workers;
  $("c-inflight").textContent = inflight;
  $("c-rpm").textContent = rpm;
  $("c-429").textContent = r429;
  var kr = s.keys.map(function (k) {
    return '<tr data-key-id="' + esc(k.key_id) + '"><td>' + esc(k.name || k.key_id) + ' <span class="dim">' + esc(k.fingerprint) + '</span> ' +
      '<span class="dim plan">' + esc(k.plan) + '</span></td>' +
      '<td class="dim">' + esc(k.project_id) + '</td>' +
      '<td>' + bar(k.requests_last_minute, k.rate_per_min) + '<span class="num rpm">' + k.requests_last_minute + ' / ' + k.rate_per_min + '</span></td>' +
      '<td class="r429">' + (k.rejected_rate_limit + k.rejected_concurrency) + '</td>' +
      '<td>' + bar(k.in_flight, k.max_in_flight) + '<span class="num inflight">' + k.in_flight + ' / ' + k.max_in_flight + '</span></td>' +
      '<td class="live">' + k.live_sessions + '</td>' +
      '<td class="subs">' + k.submissions + '</td><td>' + k.completed + '</td><td>' + k.errors + '</td></tr>';
  });
  $("key-rows").innerHTML = kr.join("") || '<tr><td colspan="9" class="dim">no API keys</td></tr>';
  var nr = s.nodes.map(function (n) {
    return '<tr data-node-id="' + esc(n.id) + '"><td>' + esc(n.name) + '<div class="dim">pool ' + esc(n.pool) + ' · ' + esc(n.url) + '</div></td>' +
      '<td><span class="badge state ' + esc(n.state) + '">' + esc(n.state) + '</span> <span class="dim">' + esc(n.kind) + '</span></td>' +
      '<td>' + bar(n.in_flight, n.slots) + '<span class="num slots">' + n.in_flight + ' / ' + n.slots + '</span>' +
      (n.max_slots !== null && n.reported_slots > n.max_slots ? ' <span class="dim cap">capped (reports ' + n.reported_slots + ')</span>' : '') + '</td>' +
      '<td class="langs">' + n.languages.map(function (l) { return esc(l.name); }).join(", ") + '</td>' +
      '<td class="dim">' + (n.last_heartbeat_at ? new Date(n.last_heartbeat_at).toLocaleTimeString() :
        (n.last_ok_at ? "polled " + new Date(n.last_ok_at).toLocaleTimeString() : "-")) + '</td></tr>';
  });
  $("node-rows").innerHTML = nr.join("") || '<tr><td colspan="5" class="dim">no fleet nodes</td></tr>';
  $("pool-rows").innerHTML = (s.pools || []).map(function (p) {
    return '<tr data-pool="' + esc(p.pool) + '"><td class="pool">' + esc(p.pool) + '</td><td class="ready">' + p.ready_nodes + ' / ' + p.nodes + '</td>' +
      '<td class="slots">' + p.workers + '</td><td class="qd">' + p.queue_depth + '</td></tr>';
  }).join("");
  $("fleet-reasons").textContent = s.fleet.reasons.join(" · ");
  drawVerdicts(s.verdicts);
  drawLatency(s.recent);
}

var VCOLORS = { AC: "#3fb950", RE: "#f0883e", TLE: "#d29922", MLE: "#a371f7", PLE: "#db61a2", FSE: "#79c0ff", SIG: "#8b949e", IE: "#f85149", error: "#f85149" };
function drawVerdicts(v) {
  var names = Object.keys(v).sort(function (a, b) { return v[b] - v[a]; });
  var total = 0; names.forEach(function (n) { total += v[n]; });
  var W = 480, H = 170, bw = Math.min(60, (W - 40) / Math.max(1, names.length) - 10), max = 1;
  names.forEach(function (n) { max = Math.max(max, v[n]); });
  var out = ['<svg id="verdict-chart" viewBox="0 0 ' + W + ' ' + H + '" width="100%" height="' + H + '" role="img" aria-label="verdict mix">'];
  names.forEach(function (n, i) {
    var h = (H - 40) * v[n] / max, x = 30 + i * (bw + 10), y = H - 20 - h;
    out.push('<rect data-verdict="' + esc(n) + '" x="' + x + '" y="' + y + '" width="' + bw + '" height="' + h + '" ' +
      'fill="' + (VCOLORS[n] || "#58a6ff") + '" rx="2"></rect>');
    out.push('<text x="' + (x + bw / 2) + '" y="' + (H - 6) + '" text-anchor="middle">' + esc(n) + '</text>');
    out.push('<text x="' + (x + bw / 2) + '" y="' + (y - 4) + '" text-anchor="middle">' + v[n] + '</text>');
  });
  if (!names.length) out.push('<text x="' + W / 2 + '" y="' + H / 2 + '" text-anchor="middle">no finished runs yet</text>');
  out.push("</svg>");
  $("verdicts").innerHTML = out.join("");
  $("verdict-total").textContent = total + " recent runs";
}
function drawLatency(runs) {
  var W = 480, H = 170, L = 44, B = 20, T = 10;
  var max = 100; runs.forEach(function (r) { max = Math.max(max, r.latency_ms); });
  var nice = [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 60000, 180000];
  for (var i = 0; i < nice.length; i++) if (nice[i] >= max) { max = nice[i]; break; }
  var out = ['<svg id="latency-chart" viewBox="0 0 ' + W + ' ' + H + '" width="100%" height="' + H + '" role="img" aria-label="latency of recent runs">'];
  [0, 0.5, 1].forEach(function (f) {
    var y = T + (H - T - B) * (1 - f);
    out.push('<line x1="' + L + '" x2="' + W + '" y1="' + y + '" y2="' + y + '" stroke="#2a333d"></line>');
    out.push('<text x="' + (L - 4) + '" y="' + (y + 4) + '" text-anchor="end">' + Math.round(max * f) + ' ms</text>');
  });
  var n = runs.length, step = (W - L - 10) / Math.max(1, n - 1), pts = [];
  runs.forEach(function (r, i) {
    var x = L + (n === 1 ? (W - L) / 2 : i * step), y = T + (H - T - B) * (1 - Math.min(1, r.latency_ms / max));
    pts.push(x.toFixed(1) + "," + y.toFixed(1));
    var fill = VCOLORS[r.job_status === "error" ? "error" : r.verdict] || "#58a6ff";
    out.push('<circle class="pt" cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="2.5" fill="' + fill + '"><title>' +
      esc(r.language) + " " + esc(r.verdict || r.job_status) + " " + r.latency_ms + ' ms</title></circle>');
  });
  if (n > 1) out.splice(4, 0, '<polyline points="' + pts.join(" ") + '" fill="none" stroke="#58a6ff" stroke-opacity=".35"></polyline>');
  if (!n) out.push('<text x="' + W / 2 + '" y="' + H / 2 + '" text-anchor="middle">no finished runs yet</text>');
  out.push("</svg>");
  $("latency").innerHTML = out.join("");
  var sorted = runs.map(function (r) { return r.latency_ms; }).sort(function (a, b) { return a - b; });
  var p = function (q) { return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0; };
  $("latency-stats").textContent = sorted.length ? "p50 " + p(0.5) + " ms · p95 " + p(0.95) + " ms (submit → result, last " + sorted.length + ")" : "";
}

// ---- webhook endpoints (through the admin API, with this session's authority) ----
function api(method, path, body) {
  var opts = { method: method, credentials: "same-origin", headers: { "x-codecell-dashboard": "1" } };
  if (body !== undefined) { opts.headers["content-type"] = "application/json"; opts.body = JSON.stringify(body); }
  return fetch("/dashboard/api/admin" + path, opts).then(function (r) {
    return r.text().then(function (t) {
      var j = null; try { j = t ? JSON.parse(t) : null; } catch (e) {}
      if (!r.ok) throw new Error((j && (j.error + (j.message ? ": " + j.message : ""))) || ("HTTP " + r.status));
      return j;
    });
  });
}
function showErr(e) { $("wh-error").textContent = e ? String(e.message || e) : ""; }
function loadProjects() {
  return api("GET", "/projects").then(function (list) {
    projects = list || [];
    var sel = $("wh-project"), cur = sel.value;
    sel.innerHTML = projects.map(function (p) { return '<option value="' + esc(p.id) + '">' + esc(p.name) + " (" + esc(p.id) + ")</option>"; }).join("");
    if (cur) sel.value = cur;
    return loadEndpoints();
  }).catch(showErr);
}
function loadEndpoints() {
  var pid = $("wh-project").value;
  if (!pid) { $("wh-rows").innerHTML = ""; return Promise.resolve(); }
  return api("GET", "/projects/" + encodeURIComponent(pid) + "/webhooks").then(function (list) {
    var items = Array.isArray(list) ? list : (list && list.endpoints) || [];
    $("wh-rows").innerHTML = items.map(function (e) {
      var state = e.active ? '<span class="badge healthy">active</span>' : '<span class="badge drained">disabled</span>';
      return '<tr data-endpoint-id="' + esc(e.id) + '"><td>' + esc(e.url) + '</td><td class="wh-state">' + state + '</td>' +
        '<td><button class="wh-toggle" data-id="' + esc(e.id) + '" data-active="' + (e.active ? "1" : "0") + '">' +
        (e.active ? "Disable" : "Enable") + '</button> ' +
        '<button class="danger wh-remove" data-id="' + esc(e.id) + '">Remove</button></td></tr>';
    }).join("") || '<tr><td colspan="3" class="dim">no endpoints</td></tr>';
    showErr(null);
  }).catch(showErr);
}
function setActive(id, active) {
  var pid = encodeURIComponent($("wh-project").value), path = "/projects/" + pid + "/webhooks/" + encodeURIComponent(id);
  return api("PATCH", path, { active: active }).catch(function (e) {
    // Older edges: the update route may be POST …/:wid/(enable|disable).
    return api("POST", path + "/" + (active ? "enable" : "disable")).catch(function () { throw e; });
  });
}
function initWebhooks() {
  $("wh-project").addEventListener("change", loadEndpoints);
  $("wh-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var pid = $("wh-project").value, url = $("wh-url").value.trim();
    if (!pid || !url) return;
    api("POST", "/projects/" + encodeURIComponent(pid) + "/webhooks", { url: url }).then(function (ep) {
      $("wh-url").value = "";
      var sec = ep && (ep.secret || (ep.secrets && ep.secrets[0] && ep.secrets[0].secret));
      $("wh-secret").hidden = false;
      $("wh-secret").innerHTML = "Signing secret for " + esc(ep.url) + " (shown once; copy it now):<br><code id=\\"wh-secret-value\\">" + esc(sec) + "</code>";
      return loadEndpoints();
    }).catch(showErr);
  });
  $("wh-rows").addEventListener("click", function (ev) {
    var b = ev.target.closest("button"); if (!b) return;
    var id = b.getAttribute("data-id");
    if (b.classList.contains("wh-toggle")) setActive(id, b.getAttribute("data-active") !== "1").then(loadEndpoints).catch(showErr);
    if (b.classList.contains("wh-remove")) {
      if (!confirm("Remove this endpoint? Deliveries to it stop at once.")) return;
      api("DELETE", "/projects/" + encodeURIComponent($("wh-project").value) + "/webhooks/" + encodeURIComponent(id)).then(loadEndpoints).catch(showErr);
    }
  });
  loadProjects();
}
initWebhooks();
connect();
`;

export function dashboardPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>codecell — operator dashboard</title><style>${STYLE}</style></head><body>
<header><h1>codecell operator dashboard</h1><span id="conn" class="down">connecting…</span><span class="sp"></span>
<span class="dim" id="updated"></span><a id="api-docs" href="/docs" style="color:var(--acc)">API reference</a>
<form method="post" action="/dashboard/logout" style="margin:0"><button>Log out</button></form></header>
<main>
<section class="wide"><div class="cards">
<div class="card"><div class="v" id="c-queue">-</div><div class="l" id="c-queue-cap">queue depth</div></div>
<div class="card"><div class="v" id="c-nodes">-</div><div class="l">healthy nodes / registered</div></div>
<div class="card"><div class="v" id="c-slots">-</div><div class="l">slots in use / available</div></div>
<div class="card"><div class="v" id="c-inflight">-</div><div class="l">submissions in flight</div></div>
<div class="card"><div class="v" id="c-rpm">-</div><div class="l">requests, last minute</div></div>
<div class="card"><div class="v" id="c-429">-</div><div class="l">429s (total)</div></div>
</div></section>
<section class="wide"><h2>API keys</h2><table><thead><tr><th>key</th><th>project</th><th>requests / min (limit)</th><th>429s</th><th>in flight (quota)</th>
<th>live sessions</th><th>submissions</th><th>completed</th><th>errors</th></tr></thead>
<tbody id="key-rows"></tbody></table></section>
<section class="wide"><h2>Fleet nodes</h2><table><thead><tr><th>node</th><th>health</th><th>slots used</th><th>languages</th>
<th>last heartbeat</th></tr></thead>
<tbody id="node-rows"></tbody></table><div class="dim" id="fleet-reasons"></div></section>
<section class="wide"><h2>Pools</h2><table><thead><tr><th>pool</th><th>ready nodes</th><th>run slots</th><th>queue depth</th></tr></thead>
<tbody id="pool-rows"></tbody></table></section>
<section><h2>Verdict mix · <span class="dim" id="verdict-total"></span></h2><div id="verdicts"></div></section>
<section><h2>Latency of recent runs</h2><div id="latency"></div><div class="dim" id="latency-stats"></div></section>
<section class="wide"><h2>Webhook endpoints</h2>
<form class="row" id="wh-form"><label>Project <select id="wh-project"></select></label>
<input type="url" id="wh-url" placeholder="https://receiver.example.com/hooks" required><button type="submit" id="wh-add">Add endpoint</button></form>
<div class="secret" id="wh-secret" hidden></div><div class="err" id="wh-error"></div>
<table><thead><tr><th>URL</th><th>state</th><th></th></tr></thead><tbody id="wh-rows"></tbody></table></section>
</main>
<script>${SCRIPT}</script></body></html>`;
}
