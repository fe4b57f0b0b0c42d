// unilayout explorer: the Planner panel. Plain JS, no build step, loaded after app.js.
// It fills <section id="panel-plan">, asks POST /api/plan (unilayout.plan.panel.answer) and shows the
// answer: the ranked grids as a table (a click on a row draws that grid), the chosen grid over the
// device, and with "reshard from" the reshard's counters and its core-to-core heat map. Its inputs
// live in the URL next to app.js's ("panel=plan" and the p* keys), so a planner view is a link too.
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var START = new URLSearchParams(location.search);  // read now: app.js's init rewrites the URL later
  var DEFAULT_SHAPE = "53x63";
  // [URL key, input id]; the chosen row is "pk".
  var KEYS = [["ps", "plan-shape"], ["pm", "plan-mesh"], ["pd", "plan-device"], ["pt", "plan-tile"],
              ["pc", "plan-collapse"], ["pe", "plan-etype"], ["pn", "plan-top"], ["pf", "plan-from"]];
  var EXAMPLES = [
    ["53x63 on 8x8", {ps: "53x63"}],
    ["tiles, 2 chips", {ps: "256x1024", pt: "32x32", pm: "1x2"}],
    ["7-D, seed collapse", {ps: "5x3x2x2x7x32x32", pc: "0,3,-3,-1", pt: "32x32"}],
    ["transpose: 0 bytes", {ps: "256x256", pc: "0,-1", pn: "5",
      pf: "tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d1, d0), undef, <8x8>, memref<32x32xf32, #tt.memory_space<l1>>>>"}]
  ];
  var COLUMNS = [["#", null], ["grid", "grid"], ["placement", "placement"], ["collapse", "collapse"],
                 ["cores used", "cores_used"], ["padding slots", "padding_slots"], ["padding", "padding_fraction"],
                 ["bytes / core", "bytes_per_core"], ["fits L1", "fits_l1"]];
  var COUNTERS = [["stay on their core", "local_bytes"], ["cross the NoC on one chip", "on_chip_bytes"],
                  ["cross chips", "chip_to_chip_bytes"], ["moved in all", "moved_bytes"],
                  ["most one core sends", "max_send_bytes"], ["most one core receives", "max_receive_bytes"],
                  ["core-to-core transfers", "transfers"], ["padding carried along", "padding_bytes"],
                  ["kept in place (same slot)", "in_place_bytes"], ["reinterpretation", "reinterpretation"],
                  ["source grid on the cores", "source"]];
  var CSS = "#panel-plan .plan-examples button { font-size: 0.85em; margin-left: 0.3em; cursor: pointer; }" +
    "#plan-grids { border-collapse: collapse; font-size: 0.85em; margin: 0.4em 0; }" +
    "#plan-grids th, #plan-grids td { border: 1px solid #d8dee6; padding: 0.1em 0.5em; text-align: right; }" +
    "#plan-grids td { font-family: ui-monospace, Menlo, Consolas, monospace; }" +
    "#plan-grids tbody tr { cursor: pointer; } #plan-grids tbody tr:hover { background: #eef4fb; }" +
    "#plan-grids tbody tr.chosen { background: #d6e6f8; font-weight: bold; }" +
    "#plan-grids tbody tr.no-fit td { color: #999; }" +
    "#plan-reshard { border-collapse: collapse; font-size: 0.85em; }" +
    "#plan-reshard th { text-align: left; font-weight: normal; color: #555; padding: 0.1em 0.8em 0.1em 0; }" +
    "#plan-reshard td { font-family: ui-monospace, Menlo, Consolas, monospace; text-align: right; }" +
    "#panel-plan code { word-break: break-all; font-size: 0.85em; }" +
    "#plan-grid-view, #plan-heat-view { max-height: 70vh; }" +
    "#plan-heat-box { margin: 0.6em 0 0 0; } #plan-heat-box figcaption, #panel-plan figcaption { font-weight: bold; font-size: 0.9em; }" +
    "#plan-heat-view svg { width: 100%; max-width: 60em; height: auto; cursor: zoom-in; }" +
    "#plan-heat-view.natural svg { width: auto; max-width: none; cursor: zoom-out; }";
  var FORM =
    "<h2>Layout planner</h2>" +
    "<form id=\"plan-form\" class=\"grid-form\">" +
    "<label>tensor shape <input id=\"plan-shape\" value=\"" + DEFAULT_SHAPE + "\" size=\"14\" spellcheck=\"false\"></label>" +
    "<label>mesh (Wormhole chips) <input id=\"plan-mesh\" placeholder=\"1x2\" size=\"6\" spellcheck=\"false\"></label>" +
    "<label class=\"wide\">or device text (empty: one 8x8 chip) <input id=\"plan-device\" spellcheck=\"false\" " +
    "placeholder=\"#tt.device&lt;workerGrid = #tt.grid&lt;8x16, ...&gt;, meshShape = 1x2, chipIds = [0, 1]&gt;\"></label>" +
    "<label>tile (empty: scalar) <input id=\"plan-tile\" placeholder=\"32x32\" size=\"6\" spellcheck=\"false\"></label>" +
    "<label>collapse (empty: every cut) <input id=\"plan-collapse\" placeholder=\"0,-1\" size=\"10\" spellcheck=\"false\"></label>" +
    "<label>element <select id=\"plan-etype\"><option>f32</option><option>bf16</option><option>f16</option>" +
    "<option>f64</option><option>i32</option><option>ui16</option><option>ui8</option></select></label>" +
    "<label>rows <input id=\"plan-top\" value=\"20\" size=\"4\" spellcheck=\"false\"></label>" +
    "<label><span><input type=\"checkbox\" id=\"plan-physical\"> physical grids only</span></label>" +
    "<label class=\"wide\">reshard from: a metal layout's tensor text, priced into the chosen grid " +
    "<input id=\"plan-from\" spellcheck=\"false\" placeholder=\"tensor&lt;53x63xf32, #tt.metal_layout&lt;...&gt;&gt;\"></label>" +
    "<button type=\"submit\" id=\"plan-run\">Plan</button>" +
    "</form>" +
    "<div class=\"row small plan-examples\" id=\"plan-examples\">examples:</div>" +
    "<div id=\"plan-error\" class=\"error\" role=\"alert\" aria-live=\"polite\"></div>" +
    "<p id=\"plan-summary\" class=\"hint\"></p>" +
    "<table id=\"plan-grids\"></table>" +
    "<div id=\"plan-chosen\" hidden>" +
    "<p>chosen: <code id=\"plan-layout\"></code> " +
    "<button type=\"button\" id=\"plan-open\" title=\"show this layout in the Layout text box below\">Show in the picture below</button> " +
    "<button type=\"button\" id=\"plan-use-from\" title=\"price moving from this layout into the next choice\">Reshard from this</button></p>" +
    "<div class=\"side-by-side\">" +
    "<figure><figcaption>the chosen grid over the device</figcaption><div id=\"plan-grid-view\" class=\"view\"></div></figure>" +
    "<figure id=\"plan-reshard-box\" hidden><figcaption>reshard into it (bytes)</figcaption>" +
    "<table id=\"plan-reshard\"></table></figure>" +
    "</div>" +
    "<figure id=\"plan-heat-box\" hidden><figcaption>core-to-core traffic: rows send, columns receive " +
    "(click the picture: natural size / fit)</figcaption><div id=\"plan-heat-view\" class=\"view\"></div></figure>" +
    "</div>";

  var choice = 0, seq = 0, lastAnswer = null;

  // The request helper and HTML escaping are app.js's (loaded first).
  function esc(s) { return window.unilayoutExplorer.esc(s); }
  function post(path, body) { return window.unilayoutExplorer.post(path, body); }

  function bytes(n) {
    var s = Number(n).toLocaleString("en-US");
    if (n >= 1 << 20) { return s + " (" + (n / (1 << 20)).toFixed(2) + " MiB)"; }
    if (n >= 1 << 10) { return s + " (" + (n / (1 << 10)).toFixed(1) + " KiB)"; }
    return s;
  }

  function cell(key, v) {
    if (key === "grid") { return v.join("x"); }
    if (key === "collapse") { return v.length ? v.map(function (p) { return "[" + p[0] + ", " + p[1] + ")"; }).join(" ") : "none"; }
    if (key === "padding_fraction") { return (100 * v).toFixed(1) + "%"; }
    if (key === "fits_l1") { return v ? "yes" : "no"; }
    if (key === "bytes_per_core" || key === "padding_slots" || key === "cores_used") { return Number(v).toLocaleString("en-US"); }
    return String(v);
  }

  // The request for the form's inputs and row ``k``.
  function request(k) {
    var body = {shape: $("plan-shape").value, choice: k, element_type: $("plan-etype").value};
    var top = $("plan-top").value.trim();
    body.top = /^\d+$/.test(top) ? +top : (top === "" ? 20 : top);
    [["mesh", "plan-mesh"], ["device", "plan-device"], ["tile", "plan-tile"], ["collapse", "plan-collapse"],
     ["reshard_from", "plan-from"]].forEach(function (p) {
      var v = $(p[1]).value.trim();
      if (v) { body[p[0]] = v; }
    });
    if ($("plan-physical").checked) { body.physical = true; }
    return body;
  }

  function writeUrl() {
    var q = new URLSearchParams(location.search);
    if (q.get("panel") !== "plan") { return; }
    KEYS.forEach(function (p) { var v = $(p[1]).value; if (v) { q.set(p[0], v); } else { q.delete(p[0]); } });
    if ($("plan-physical").checked) { q.set("pp", "1"); } else { q.delete("pp"); }
    if (choice) { q.set("pk", String(choice)); } else { q.delete("pk"); }
    history.replaceState(null, "", location.pathname + "?" + q.toString());
  }

  // Ask for row ``k`` of the form's plan and draw the answer (an older answer arriving late is dropped).
  function run(k) {
    choice = k || 0;
    var my = ++seq;
    $("panel-plan").setAttribute("data-state", "pending");
    writeUrl();
    return post("/api/plan", request(choice)).then(function (r) {
      if (my !== seq) { return; }
      $("panel-plan").setAttribute("data-state", r.ok ? "done" : "error");
      if (!r.ok) {
        var e = r.json.error || {}, box = $("plan-error");
        box.textContent = (e.field ? e.field + ": " : "") + (e.message || "error");
        $("plan-grids").innerHTML = ""; $("plan-summary").textContent = ""; $("plan-chosen").hidden = true;
        lastAnswer = null;
        return;
      }
      $("plan-error").textContent = "";
      show(r.json);
    });
  }

  function show(a) {
    lastAnswer = a;
    var shown = a.grids.length;
    $("plan-summary").textContent = a.count + " candidate grid" + (a.count === 1 ? "" : "s") +
      (shown < a.count ? ", the first " + shown + " listed" : "") +
      " \u2014 ranked: fits L1, most cores (\u201cmax the grid\u201d), least padding. Click a row to draw it.";
    var html = "<thead><tr>" + COLUMNS.map(function (c) { return "<th>" + esc(c[0]) + "</th>"; }).join("") + "</tr></thead><tbody>";
    a.grids.forEach(function (row, i) {
      html += "<tr data-choice=\"" + i + "\" tabindex=\"0\" class=\"" + (i === a.choice ? "chosen" : "") + (row.fits_l1 ? "" : " no-fit") +
        "\" title=\"" + esc(row.layout) + "\">" + COLUMNS.map(function (c) {
          return "<td>" + esc(c[1] ? cell(c[1], row[c[1]]) : i) + "</td>";
        }).join("") + "</tr>";
    });
    if (a.choice >= shown) {  // a chosen row past the listed ones (from a link): say which
      html += "<tr class=\"chosen\"><td colspan=\"" + COLUMNS.length + "\">row " + a.choice + " (not listed)</td></tr>";
    }
    var refocus = $("plan-grids").contains(document.activeElement);  // a keyboard user keeps their place
    $("plan-grids").innerHTML = html + "</tbody>";
    var chosenRow = $("plan-grids").querySelector("tr[data-choice=\"" + a.choice + "\"]");
    if (refocus && chosenRow) { chosenRow.focus(); }
    $("plan-chosen").hidden = false;
    $("plan-layout").textContent = a.layout;
    $("plan-grid-view").innerHTML = a.svg;  // the server's SVG (unilayout.viz.svg): no user text unescaped
    var rb = $("plan-reshard-box");
    rb.hidden = !a.reshard;
    $("plan-heat-box").hidden = !a.reshard;
    if (a.reshard) {
      var r = a.reshard;
      $("plan-reshard").innerHTML = COUNTERS.map(function (c) {
        var v = r[c[1]];
        var text = c[1] === "reinterpretation" || c[1] === "source" ? (v === null || v === undefined ? "none" : v) :
          c[1] === "transfers" ? Number(v).toLocaleString("en-US") : bytes(v);
        return "<tr data-key=\"" + c[1] + "\"><th>" + esc(c[0]) + "</th><td>" + esc(text) + "</td></tr>";
      }).join("");
      $("plan-heat-view").innerHTML = r.svg ||  // the server's SVG, as above
        "<p class=\"hint\">no core-to-core picture: more than 128 cores (16,384 pairs)</p>";
    }
  }

  function rowClicked(e) {
    var tr = e.target.closest ? e.target.closest("tr[data-choice]") : null;
    if (!tr) { return; }
    if (e.type === "keydown" && e.key !== "Enter" && e.key !== " ") { return; }
    e.preventDefault();
    run(+tr.getAttribute("data-choice"));
  }

  // The panel is visible when the "Planner" tab is the chosen one (app.js hides the other panels).
  function syncVisible(name) {
    $("panel-plan").hidden = name !== "plan";
  }

  function fill(q) {
    KEYS.forEach(function (p) { if (q.has(p[0])) { $(p[1]).value = q.get(p[0]); } });
    $("plan-physical").checked = q.get("pp") === "1";
    var k = parseInt(q.get("pk") || "0", 10);
    return isNaN(k) || k < 0 ? 0 : k;
  }

  function init() {
    var box = $("panel-plan");
    if (!box) { return; }
    var style = document.createElement("style");
    style.textContent = CSS;
    document.head.appendChild(style);
    box.innerHTML = FORM;
    var ex = $("plan-examples");
    EXAMPLES.forEach(function (e) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = e[0];
      b.addEventListener("click", function () {
        KEYS.forEach(function (p) { $(p[1]).value = e[1][p[0]] || (p[0] === "pn" ? "20" : p[0] === "pe" ? "f32" : ""); });
        $("plan-physical").checked = false;
        run(0);
      });
      ex.appendChild(b);
    });
    $("plan-form").addEventListener("submit", function (e) { e.preventDefault(); run(0); });
    $("plan-grids").addEventListener("click", rowClicked);
    $("plan-grids").addEventListener("keydown", rowClicked);
    $("plan-heat-view").addEventListener("click", function () { $("plan-heat-view").classList.toggle("natural"); });
    $("plan-open").addEventListener("click", function () {
      if (!lastAnswer) { return; }
      $("layout-input").value = lastAnswer.layout;
      $("layout-apply").click();
      $("workspace").scrollIntoView({block: "start"});
    });
    $("plan-use-from").addEventListener("click", function () {
      if (!lastAnswer) { return; }
      $("plan-from").value = lastAnswer.layout;
      run(choice);
    });
    // app.js rewrites the URL from its own state when the layout box changes: put the planner's keys back after it
    [["layout-input", "change"], ["layout-apply", "click"], ["affine-shape", "change"], ["group-by", "change"]].forEach(function (p) {
      var el = $(p[0]);
      if (el) { el.addEventListener(p[1], writeUrl); }
    });
    $("layout-input").addEventListener("keydown", function (e) { if (e.key === "Enter") { writeUrl(); } });
    var navs = document.querySelectorAll("#panels button");
    for (var i = 0; i < navs.length; i++) {
      navs[i].addEventListener("click", function (e) {  // after app.js's own listener (it wrote the URL)
        var name = e.currentTarget.getAttribute("data-panel");
        syncVisible(name);
        if (name === "plan") { writeUrl(); if (!lastAnswer) { run(choice); } }
      });
    }
    if (document.getElementById("embedded-view")) { return; }  // a saved page: no server to ask
    if (START.get("panel") === "plan") {
      choice = fill(START);
      var nav = document.querySelector("#panels button[data-panel=\"plan\"]");
      if (nav) { nav.click(); }  // app.js marks the tab and hides the other panels; ours shows the panel and runs
    }
  }

  window.unilayoutPlanner = {run: run, request: request};

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
