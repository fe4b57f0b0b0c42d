// unilayout explorer: plain JS, no build step. The server only parses and renders;
// this script shows the answers, the cell details and keeps the page state in the URL.
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var embeddedEl = $("embedded-view");
  var EMBEDDED = embeddedEl ? JSON.parse(embeddedEl.textContent) : null;

  var EXAMPLES = [
    ["CuTe", "((2,2),2):((4,1),2)"],
    ["swizzle", "Sw<2,0,3> o 0 o (8,8):(8,1)"],
    ["linear", "#ttg.linear<{register = [[0, 1], [0, 4], [4, 0]], lane = [[0, 2], [1, 0], [2, 0]], warp = [], block = []}>"],
    ["affine", "(d0, d1) -> (d0 * 4 + d1, d1 floordiv 2)"],
    ["TSL", "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>"],
    ["metal 53x63", "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>"],
    ["device", "#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>"]
  ];
  var ENCODINGS = {
    blocked: {size_per_thread: [1, 2], threads_per_warp: [8, 4], warps_per_cta: [2, 1], order: [1, 0]},
    nvidia_mma: {version: [2, 0], warps_per_cta: [2, 1], instr_shape: [16, 8]},
    amd_mfma: {version: 3, instr_shape: [16, 16, 16], is_transposed: false, warps_per_cta: [1, 1]},
    swizzled_shared: {vec: 2, per_phase: 1, max_phase: 4, order: [1, 0]}
  };

  var state = {panel: "layout", group: ""};
  var views = {};        // container id -> {data, cells, byGroup}
  var pinned = null;      // {container, k} of a clicked cell
  var links = [];         // [container, key, container, key]: cells standing for the same thing in two views
  var CAPTIONS = {"algebra-a-view": "A", "algebra-b-view": "B", "algebra-result-view": "the result",
                  "enc-a-view": "A", "enc-b-view": "B", "layout-view": "the picture"};

  // ------------------------------------------------------------ requests
  function post(path, body) {
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) {
        return r.json().then(function (j) { return {ok: r.ok, status: r.status, json: j}; },
          function () { return {ok: false, status: r.status, json: {error: {message: "the server answered " + r.status + " without JSON"}}}; });
      }, function (e) {
        return {ok: false, status: 0, json: {error: {message: "cannot reach the explorer server (" + e + "): is `unilayout serve` running?"}}};
      });
  }

  function showError(box, err) {
    box.textContent = "";
    if (!err) { return; }
    var msg = err.message || "error";
    if (err.field && err.field !== "text") { msg = err.field + ": " + msg; }
    if (err.position !== null && err.position !== undefined) { msg += " (at position " + err.position + ")"; }
    box.appendChild(document.createTextNode(msg));
    if (err.text !== null && err.text !== undefined && err.position !== null && err.position !== undefined) {
      var t = err.text, p = Math.max(0, Math.min(err.position, t.length));
      var start = t.lastIndexOf("\n", p - 1) + 1, end = t.indexOf("\n", p);
      if (end < 0) { end = t.length; }
      var pre = document.createElement("pre");
      pre.className = "caret";
      pre.textContent = t.slice(start, end) + "\n" + " ".repeat(p - start) + "^";
      box.appendChild(pre);
    }
  }

  // ------------------------------------------------------------ views and cells
  function mount(containerId, data) {
    var box = $(containerId);
    if (!data) { box.innerHTML = ""; delete views[containerId]; return; }
    box.innerHTML = data.svg;
    box.classList.remove("stale");
    var cells = [];
    var els = box.querySelectorAll(".cell");
    for (var i = 0; i < els.length; i++) { cells[+els[i].getAttribute("data-cell")] = els[i]; }
    views[containerId] = {data: data, cells: cells, byGroup: {}, lit: []};
    if (pinned && pinned.container === containerId) { pinned = null; }
  }

  function groupName(v) {
    var names = Object.keys(v.data.groups);
    if (state.group && names.indexOf(state.group) >= 0) { return state.group; }
    return names.length ? names[0] : null;
  }

  function members(v, name, key) {
    var m = v.byGroup[name];
    if (!m) {
      m = {};
      var g = v.data.groups[name];
      for (var k = 0; k < g.length; k++) { (m[g[k]] = m[g[k]] || []).push(k); }
      v.byGroup[name] = m;
    }
    return m[key] || [];
  }

  function clearLit(v) {
    for (var i = 0; i < v.lit.length; i++) { v.lit[i].classList.remove("same", "current", "linked"); }
    v.lit = [];
  }

  function byKey(v, key, value) {
    v.byKey = v.byKey || {};
    var m = v.byKey[key];
    if (!m) {
      m = {};
      var vals = (v.data.keys || {})[key] || [];
      for (var k = 0; k < vals.length; k++) { (m[vals[k]] = m[vals[k]] || []).push(k); }
      v.byKey[key] = m;
    }
    return m[value] || [];
  }

  function table(d, k, first) {
    var html = "<table>" + (first || "");
    for (var i = 0; i < d.columns.length; i++) {
      html += "<tr><th>" + esc(d.columns[i]) + "</th><td>" + esc(d.details[k][i]) + "</td></tr>";
    }
    return html + "</table>";
  }

  function linkedHtml(containerId, k) {
    var v = views[containerId], html = "";
    links.forEach(function (l) {
      var from = l[0], fromKey = l[1], to = l[2], toKey = l[3];
      if (to === containerId) { from = l[2]; fromKey = l[3]; to = l[0]; toKey = l[1]; }
      if (from !== containerId || !views[to]) { return; }
      var vals = (v.data.keys || {})[fromKey];
      if (!vals) { return; }
      var w = views[to], hits = byKey(w, toKey, vals[k]);
      hits.forEach(function (j) { var c = w.cells[j]; if (c) { c.classList.add("linked"); w.lit.push(c); } });
      html += "<h4>in " + esc(CAPTIONS[to] || to) + ": " + hits.length + " cell(s) with " + esc(toKey) + " " + esc(vals[k]) + "</h4>";
      if (hits.length) { html += table(w.data, hits[0]); }
    });
    return html;
  }

  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]; }); }

  function showCell(containerId, k) {
    var v = views[containerId];
    if (!v) { return; }
    Object.keys(views).forEach(function (id) { clearLit(views[id]); });
    var d = v.data, el = v.cells[k];
    var html = "<h3>" + esc(d.family) + " cell " + k + (el && el.classList.contains("padding") ? " (padding)" : "") +
      (CAPTIONS[containerId] && containerId !== "layout-view" ? " of " + esc(CAPTIONS[containerId]) : "") + "</h3>";
    html += table(d, k, "<tr><th>data-index</th><td>" + esc(el ? el.getAttribute("data-index") : "") + "</td></tr>");
    var name = groupName(v);
    if (name !== null) {
      var key = d.groups[name][k], same = members(v, name, key);
      for (var j = 0; j < same.length; j++) {
        var c = v.cells[same[j]];
        if (c) { c.classList.add("same"); v.lit.push(c); }
      }
      html += "<p class=\"group\">highlighted: <b>" + same.length + "</b> cell(s) with the same " + esc(name) + "</p>";
    }
    if (el) { el.classList.add("current"); v.lit.push(el); }
    html += linkedHtml(containerId, k);
    $("cell-details").innerHTML = html;
  }

  function attachHover(containerId) {
    var box = $(containerId);
    box.addEventListener("mouseover", function (e) {
      var c = e.target.closest ? e.target.closest(".cell") : null;
      if (!c || pinned) { return; }
      showCell(containerId, +c.getAttribute("data-cell"));
    });
    box.addEventListener("click", function (e) {
      var c = e.target.closest ? e.target.closest(".cell") : null;
      if (!c) { pinned = null; return; }
      var k = +c.getAttribute("data-cell");
      if (pinned && pinned.container === containerId && pinned.k === k) { pinned = null; return; }
      pinned = {container: containerId, k: k};
      showCell(containerId, k);
    });
  }

  function fillGroups(data) {
    var sel = $("group-by"), names = data ? Object.keys(data.groups) : [];
    sel.innerHTML = "";
    names.forEach(function (n) {
      var o = document.createElement("option");
      o.value = n; o.textContent = n; sel.appendChild(o);
    });
    if (state.group && names.indexOf(state.group) >= 0) { sel.value = state.group; }
  }

  // ------------------------------------------------------------ URL state
  function val(id) { return $(id).value; }
  var FORM_KEYS = {
    metal: [["ms", "metal-shape"], ["mg", "metal-grid"], ["mt", "metal-tile"], ["mc", "metal-collapse"], ["ma", "metal-align"], ["mo", "metal-oob"]],
    algebra: [["aa", "algebra-a"], ["aop", "algebra-op"], ["ab", "algebra-b"]],
    encodings: [["es", "enc-shape"], ["eak", "enc-a-kind"], ["eap", "enc-a-params"], ["ebk", "enc-b-kind"], ["ebp", "enc-b-params"]]
  };

  function writeUrl() {
    if (EMBEDDED) { return; }
    var q = new URLSearchParams();
    var text = val("layout-input");
    if (text) { q.set("layout", text); }
    if (val("affine-shape")) { q.set("shape", val("affine-shape")); }
    if (state.group) { q.set("group", state.group); }
    if (state.panel !== "layout") {
      q.set("panel", state.panel);
      (FORM_KEYS[state.panel] || []).forEach(function (p) { q.set(p[0], val(p[1])); });
    }
    var url = location.pathname + (q.toString() ? "?" + q.toString() : "");
    history.replaceState(null, "", url);
  }

  function readUrl() {
    var q = new URLSearchParams(location.search);
    Object.keys(FORM_KEYS).forEach(function (panel) {
      FORM_KEYS[panel].forEach(function (p) { if (q.has(p[0])) { $(p[1]).value = q.get(p[0]); } });
    });
    if (q.has("shape")) { $("affine-shape").value = q.get("shape"); }
    state.group = q.get("group") || "";
    return {layout: q.get("layout"), panel: q.get("panel") || "layout"};
  }

  // ------------------------------------------------------------ actions
  var seq = 0, lastRequest = null;
  function showMain(data) {
    mount("layout-view", data);
    var drawn = data.total !== undefined && data.total !== data.count ? data.count + " of " + data.total + " cells drawn" : data.count + " cells";
    $("layout-summary").textContent = data.summary + " \u2014 " + drawn + (data.padding ? ", " + data.padding + " padding" : "");
    $("layout-note").textContent = data.note || "";
    $("layout-note").hidden = !data.note;
    fillGroups(data);
    var box = $("core-table-box");
    box.hidden = !data.cores;
    if (data.cores) {
      var html = "<tr>" + data.cores.columns.map(function (c) { return "<th>" + esc(c) + "</th>"; }).join("") + "</tr>";
      data.cores.rows.forEach(function (r) {
        html += "<tr>" + r.map(function (c) { return "<td>" + esc(c) + "</td>"; }).join("") + "</tr>";
      });
      $("core-table").innerHTML = html;
      box.open = data.cores.rows.length <= 16;
    }
    $("facts-box").hidden = !data.facts;
    $("layout-facts").innerHTML = (data.facts || []).map(function (f) {
      return "<tr><th>" + esc(f[0]) + "</th><td>" + esc(f[1]) + "</td></tr>";
    }).join("");
    if (!pinned) { $("cell-details").innerHTML = ""; }
  }

  function apply() {
    var text = val("layout-input");
    if (EMBEDDED) {
      if (text !== EMBEDDED.text) {
        showError($("layout-error"), {message: "this saved page shows one layout; run `unilayout serve` to explore other layouts"});
      } else { showError($("layout-error"), null); }
      return Promise.resolve();
    }
    var request = text + "\u0000" + val("affine-shape");
    if (request === lastRequest) { return Promise.resolve(); }  // Enter then blur: one answer is enough
    lastRequest = request;
    var my = ++seq;
    writeUrl();
    if (!text.trim()) {
      showError($("layout-error"), {message: "enter layout text, e.g. (4,8):(8,1)", position: 0, text: ""});
      return Promise.resolve();
    }
    var body = {text: text};
    if (val("affine-shape").trim()) { body.shape = val("affine-shape"); }
    return post("/api/view", body).then(function (r) {
      if (my !== seq) { return; }
      if (r.status === 0) { lastRequest = null; }  // the server was unreachable: Enter tries again
      if (!r.ok) {
        showError($("layout-error"), r.json.error);
        $("layout-view").classList.add("stale");
        $("layout-summary").textContent = "";
        $("layout-note").textContent = ""; $("layout-note").hidden = true;
        return;
      }
      showError($("layout-error"), null);
      showMain(r.json);
    });
  }

  function buildMetal() {
    writeUrl();
    return post("/api/metal", {
      shape: val("metal-shape"), grid: val("metal-grid"), tile: val("metal-tile"),
      collapse: val("metal-collapse"), alignments: val("metal-align"), oob_val: val("metal-oob")
    }).then(function (r) {
      if (!r.ok) { showError($("metal-error"), r.json.error); return; }
      showError($("metal-error"), null);
      showError($("layout-error"), null);
      $("layout-input").value = r.json.text;
      lastRequest = r.json.text + "\u0000" + val("affine-shape");
      showMain(r.json);
      writeUrl();
    });
  }

  function runAlgebra() {
    writeUrl();
    return post("/api/algebra", {a: val("algebra-a"), b: val("algebra-b"), op: val("algebra-op")}).then(function (r) {
      if (!r.ok) {
        showError($("algebra-error"), r.json.error);
        ["algebra-a-view", "algebra-b-view", "algebra-result-view"].forEach(function (id) { mount(id, null); });
        $("algebra-result-text").textContent = "";
        return;
      }
      showError($("algebra-error"), null);
      mount("algebra-a-view", r.json.a);
      mount("algebra-b-view", r.json.b);
      mount("algebra-result-view", r.json.result);
      links = (r.json.links || []).map(function (l) { return ["algebra-" + l[0] + "-view", l[1], "algebra-" + l[2] + "-view", l[3]]; });
      $("algebra-result-text").textContent = r.json.op + "(" + val("algebra-a") + (r.json.b || val("algebra-b") ? ", " + val("algebra-b") : "") + ") = " + r.json.text;
    });
  }

  function runEncodings() {
    writeUrl();
    var body = {shape: val("enc-shape"), a: {kind: val("enc-a-kind"), params: val("enc-a-params")}};
    if (val("enc-b-kind") !== "none") { body.b = {kind: val("enc-b-kind"), params: val("enc-b-params")}; }
    return post("/api/encodings", body).then(function (r) {
      if (!r.ok) {
        showError($("enc-error"), r.json.error);
        mount("enc-a-view", null); mount("enc-b-view", null);
        $("enc-levels").textContent = "";
        return;
      }
      showError($("enc-error"), null);
      mount("enc-a-view", r.json.a);
      mount("enc-b-view", r.json.b);
      links = (r.json.links || []).map(function (l) { return ["enc-" + l[0] + "-view", l[1], "enc-" + l[2] + "-view", l[3]]; });
      $("enc-levels").textContent = r.json.notes.join("; ");
    });
  }

  function setPanel(name) {
    state.panel = name;
    ["metal", "algebra", "encodings"].forEach(function (p) {
      $("panel-" + p).hidden = p !== name;
    });
    var buttons = document.querySelectorAll("#panels button");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].classList.toggle("active", buttons[i].getAttribute("data-panel") === name);
    }
    if (name !== "algebra") { ["algebra-a-view", "algebra-b-view", "algebra-result-view"].forEach(function (id) { mount(id, null); }); }
    if (name !== "encodings") { mount("enc-a-view", null); mount("enc-b-view", null); }
  }

  // ------------------------------------------------------------ wiring
  function init() {
    ["layout-view", "algebra-a-view", "algebra-b-view", "algebra-result-view", "enc-a-view", "enc-b-view"].forEach(attachHover);
    var ex = $("examples");
    EXAMPLES.forEach(function (e) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = e[0]; b.setAttribute("data-example", e[1]);
      b.addEventListener("click", function () { $("layout-input").value = e[1]; apply(); });
      ex.appendChild(b);
    });
    var kinds = Object.keys(ENCODINGS);
    ["enc-a-kind", "enc-b-kind"].forEach(function (id, j) {
      var sel = $(id);
      (j ? ["none"].concat(kinds) : kinds).forEach(function (k) {
        var o = document.createElement("option"); o.value = k; o.textContent = k; sel.appendChild(o);
      });
      sel.addEventListener("change", function () {
        var p = id === "enc-a-kind" ? "enc-a-params" : "enc-b-params";
        $(p).value = ENCODINGS[sel.value] ? JSON.stringify(ENCODINGS[sel.value]) : "";
      });
    });
    $("enc-a-kind").value = "blocked"; $("enc-a-params").value = JSON.stringify(ENCODINGS.blocked);
    $("enc-b-kind").value = "nvidia_mma"; $("enc-b-params").value = JSON.stringify(ENCODINGS.nvidia_mma);

    var input = $("layout-input");
    input.addEventListener("change", apply);
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); apply(); } });
    $("layout-apply").addEventListener("click", apply);
    $("affine-shape").addEventListener("change", apply);
    $("group-by").addEventListener("change", function () {
      state.group = val("group-by");
      writeUrl();
      if (pinned) { showCell(pinned.container, pinned.k); }
    });
    $("metal-form").addEventListener("submit", function (e) { e.preventDefault(); buildMetal(); });
    $("algebra-form").addEventListener("submit", function (e) { e.preventDefault(); runAlgebra(); });
    $("encodings-form").addEventListener("submit", function (e) { e.preventDefault(); runEncodings(); });
    var navs = document.querySelectorAll("#panels button");
    for (var i = 0; i < navs.length; i++) {
      navs[i].addEventListener("click", function (e) { setPanel(e.currentTarget.getAttribute("data-panel")); writeUrl(); });
    }

    if (EMBEDDED) {
      $("panels").style.display = "none";
      input.value = EMBEDDED.text;
      if (EMBEDDED.shape) { $("affine-shape").value = EMBEDDED.shape.join("x"); }
      showMain(EMBEDDED.view);
      return;
    }
    var start = readUrl();
    setPanel(["layout", "metal", "algebra", "encodings"].indexOf(start.panel) >= 0 ? start.panel : "layout");
    if (start.layout !== null) { input.value = start.layout; apply(); }
    if (state.panel === "algebra") { runAlgebra(); }
    if (state.panel === "encodings") { runEncodings(); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
