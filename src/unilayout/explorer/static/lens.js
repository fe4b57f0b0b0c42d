// unilayout explorer: "open a dump". Plain JS, no build step, self-contained (needs nothing from app.js).
// UnilayoutLens.mount(element) draws a box to paste or open a TTGIR/TTIR or tt-mlir dump, asks POST /api/lens
// (unilayout.explorer.panels.lens.lens_view) and shows the dump with every layout-carrying type clickable (its
// picture comes from POST /api/view, and a link opens it in the main view) and every data-moving op annotated
// with its price (level, bytes, bank conflicts, vectors, instructions). UnilayoutLens.render(element, answer)
// draws an answer already in hand. On the explorer's page it fills <section id="panel-lens"> when the tab
// <button data-panel="lens"> is chosen (see wire() at the end).
"use strict";
(function () {
  var CSS =
    ".lens-form textarea { width: 100%; min-height: 8em; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.8em; }" +
    ".lens-body { display: flex; gap: 1em; align-items: flex-start; }" +
    ".lens-code { flex: 3; overflow: auto; max-height: 75vh; border: 1px solid #d8dee6; font-size: 0.78em; margin: 0; }" +
    ".lens-code .ln { color: #999; user-select: none; display: inline-block; width: 4.5em; text-align: right; padding-right: 0.6em; }" +
    ".lens-code .row { display: block; margin: 0; white-space: pre; font-family: ui-monospace, Menlo, Consolas, monospace; }" +
    ".lens-code .row.move { background: #fff6e0; }" +
    ".lens-code .ty { text-decoration: underline dotted; cursor: pointer; color: #1a5fb4; }" +
    ".lens-code .ty:hover, .lens-code .ty.on { background: #d6e6f8; }" +
    ".lens-code .note { white-space: pre-wrap; color: #8a4b00; font-style: italic; padding-left: 5.1em; font-size: 0.95em; }" +
    ".lens-code .note.shared { color: #a01010; } .lens-code .note.free { color: #2a7a2a; }" +
    ".lens-side { flex: 2; position: sticky; top: 0; } .lens-side svg { max-width: 100%; height: auto; }" +
    ".lens-side pre { font-size: 0.75em; overflow: auto; } .lens-error { color: #a01010; white-space: pre-wrap; }";

  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function post(path, body) {
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, body: j}; }); });
  }

  function addStyle() {
    if (document.getElementById("lens-style")) return;
    var st = document.createElement("style");
    st.id = "lens-style";
    st.textContent = CSS;
    document.head.appendChild(st);
  }

  function noteClass(mv) {
    if (/shared-memory round trip|chip to chip/.test(mv.level)) return "note shared";
    if (/^(none|register permutation|in place)/.test(mv.level)) return "note free";
    return "note";
  }

  // One line of the dump with its types wrapped in clickable spans (types sorted by column).
  function lineHtml(text, spans) {
    var out = "", at = 0;
    spans.sort(function (a, b) { return a.col - b.col; });
    spans.forEach(function (t) {
      if (t.col < at) return;
      out += esc(text.slice(at, t.col));
      out += "<span class=\"ty\" data-layout=\"" + t.layout + "\" title=\"" + esc(t.value || "") + "\">" +
        esc(text.slice(t.col, t.end)) + "</span>";
      at = t.end;
    });
    return out + esc(text.slice(at));
  }

  function render(el, a) {
    addStyle();
    var byLine = {}, moves = {};
    a.types.forEach(function (t) { (byLine[t.line] = byLine[t.line] || []).push(t); });
    a.moves.forEach(function (m) { (moves[m.line] = moves[m.line] || []).push(m); });
    var rows = a.lines.map(function (text, i) {
      var n = i + 1, mv = moves[n];
      var html = "<div class=\"row" + (mv ? " move" : "") + "\"><span class=\"ln\">" + n + "</span>" +
        lineHtml(text, (byLine[n] || []).slice()) + "</div>";
      (mv || []).forEach(function (m) {
        html += "<div class=\"" + noteClass(m) + "\">\u21b3 " + esc(m.op) + " \u2014 " + esc(m.label) + "</div>";
      });
      return html;
    });
    var head = a.kind + " dump: " + a.moves.length + " move" + (a.moves.length === 1 ? "" : "s") + ", " +
      a.layouts.length + " distinct layout" + (a.layouts.length === 1 ? "" : "s");
    if (a.unknown_ops.length) head += "; unknown ops (read, not priced): " + a.unknown_ops.join(", ");
    el.innerHTML = "<p>" + esc(head) + "</p><div class=\"lens-body\"><div class=\"lens-code\">" + rows.join("") +
      "</div><div class=\"lens-side\"><p>Click a type to see its layout.</p><div class=\"lens-picture\"></div>" +
      "<details><summary>table</summary><pre>" + esc(a.table) + "</pre></details></div></div>";
    var side = el.querySelector(".lens-picture");
    el.querySelector(".lens-code").addEventListener("click", function (ev) {
      var t = ev.target.closest(".ty");
      if (!t) return;
      el.querySelectorAll(".ty.on").forEach(function (x) { x.classList.remove("on"); });
      el.querySelectorAll(".ty[data-layout=\"" + t.dataset.layout + "\"]").forEach(function (x) { x.classList.add("on"); });
      var lay = a.layouts[+t.dataset.layout];
      side.innerHTML = "<p><b>" + esc(lay.short) + "</b> \u2014 <a href=\"" + esc(lay.link) + "\">open in the explorer</a></p>" +
        "<p>drawing\u2026</p>";
      post("/api/view", {text: lay.text}).then(function (r) {
        if (!r.ok) {
          side.innerHTML += "<p class=\"lens-error\">" + esc(r.body.error ? r.body.error.message : "no picture") + "</p>";
          return;
        }
        var v = r.body;
        side.innerHTML = "<p><b>" + esc(lay.short) + "</b> (" + esc(v.family || "") + ") \u2014 <a href=\"" +
          esc(lay.link) + "\">open in the explorer</a></p>" +
          (v.svg ? v.svg : "<p>" + esc(v.summary || "too big to draw here: open it in the explorer") + "</p>");
      });
    });
  }

  function mount(el) {
    addStyle();
    el.innerHTML = "<h2>Open a dump</h2><form class=\"lens-form\"><textarea spellcheck=\"false\" " +
      "placeholder=\"paste a TTGIR/TTIR or tt-mlir dump (MLIR_ENABLE_DUMP, compiled.asm['ttgir'], ttmlir-opt)\"></textarea>" +
      "<p><input type=\"file\" accept=\".ttgir,.ttir,.mlir,.txt\"> <button type=\"submit\">Read</button></p></form>" +
      "<div class=\"lens-out\"></div>";
    var form = el.querySelector("form"), area = el.querySelector("textarea"), out = el.querySelector(".lens-out");
    el.querySelector("input[type=file]").addEventListener("change", function (ev) {
      var f = ev.target.files[0];
      if (f) f.text().then(function (s) { area.value = s; });
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      out.innerHTML = "<p>reading\u2026</p>";
      post("/api/lens", {text: area.value}).then(function (r) {
        if (!r.ok) {
          var e = r.body.error || {};
          out.innerHTML = "<p class=\"lens-error\">" + esc(e.detail || e.message || "the dump did not read") + "</p>";
          return;
        }
        render(out, r.body);
      });
    });
  }

  window.UnilayoutLens = {mount: mount, render: render};

  // On the explorer's page: a <section id="panel-lens"> and a tab <button data-panel="lens"> in #panels make it a
  // panel (shown when its tab is chosen, filled on first show; "?panel=lens" opens it). A saved page has no server.
  function wire() {
    var box = document.getElementById("panel-lens");
    if (!box || document.getElementById("embedded-view")) { return; }
    var mounted = false;
    function sync(name) {
      box.hidden = name !== "lens";
      if (name === "lens" && !mounted) { mounted = true; mount(box); }
    }
    var navs = document.querySelectorAll("#panels button");
    for (var i = 0; i < navs.length; i++) {
      navs[i].addEventListener("click", function (e) { sync(e.currentTarget.getAttribute("data-panel")); });
    }
    if (new URLSearchParams(location.search).get("panel") === "lens") {
      var nav = document.querySelector("#panels button[data-panel=\"lens\"]");
      if (nav) { nav.click(); } else { sync("lens"); }
    }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", wire); } else { wire(); }
})();
