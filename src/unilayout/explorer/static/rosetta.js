// unilayout explorer: the Rosetta panel. Plain JS, no build step, self-contained.
// UnilayoutRosetta.mount(element[, {api, instruction, operand}]) fills `element` with a form (instruction, operand),
// asks POST /api/rosetta (unilayout.explorer.panels.rosetta.rosetta_view) and shows every system's spelling of that
// operand with its verdict against the instruction's reference system, and the systems' pictures side by side:
// each cell is an element of the operand tile labelled with the thread and value holding it; cells held otherwise
// than in the reference are outlined in red. Hovering a cell marks the same cell in every picture. On the explorer's
// page it also wires itself as the "Rosetta" tab's panel when the page has one (wire(), at the end).
"use strict";
(function () {
  var CSS =
    ".rosetta-form { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: end; }" +
    ".rosetta-form input { width: 22em; font-family: ui-monospace, Menlo, Consolas, monospace; }" +
    ".rosetta-table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }" +
    ".rosetta-table th, .rosetta-table td { border: 1px solid #d8dee6; padding: 0.15em 0.5em; text-align: left; vertical-align: top; }" +
    ".rosetta-table code { word-break: break-all; font-size: 0.9em; }" +
    ".rosetta-table .v-same, .rosetta-table .v-reference { color: #1a7f37; font-weight: bold; }" +
    ".rosetta-table .v-permuted { color: #9a6700; font-weight: bold; }" +
    ".rosetta-table .v-different, .rosetta-table .v-error { color: #cf222e; font-weight: bold; }" +
    ".rosetta-pictures { display: flex; flex-wrap: wrap; gap: 1em; }" +
    ".rosetta-pictures figure { margin: 0; max-width: 100%; overflow: auto; }" +
    ".rosetta-pictures figcaption { font-weight: bold; font-size: 0.9em; }" +
    ".rosetta-pictures g.cell[data-differs='1'] rect { stroke: #dc1414; stroke-width: 2.5; }" +
    ".rosetta-pictures g.cell.rosetta-hl rect { stroke: #000; stroke-width: 3; }" +
    ".rosetta-error { color: #cf222e; } .rosetta-note { color: #555; font-size: 0.85em; }" +
    ".rosetta-hover { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85em; min-height: 1.2em; }";

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in (attrs || {})) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function post(api, body) {
    return fetch(api, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) {
        return r.json().then(function (d) {
          if (!r.ok) { throw new Error((d.error && d.error.message) || ("HTTP " + r.status)); }
          return d;
        });
      });
  }

  function addStyle() {
    if (document.getElementById("rosetta-style")) { return; }
    var s = el("style", {id: "rosetta-style"});
    s.textContent = CSS;
    document.head.appendChild(s);
  }

  function table(answer) {
    var t = el("table", {"class": "rosetta-table"});
    var head = el("tr");
    ["system", "verdict", "cells that differ", "spelling"].forEach(function (h) { head.appendChild(el("th", null, h)); });
    t.appendChild(head);
    answer.systems.forEach(function (s) {
      var tr = el("tr");
      tr.appendChild(el("td", null, s.system));
      var v = el("td", {"class": "v-" + s.verdict}, s.verdict);
      if (s.detail) { v.appendChild(el("div", {"class": "rosetta-note"}, s.detail)); }
      tr.appendChild(v);
      var d = el("td", null, s.differing_count ? s.differing_count + " (first: " +
        s.differing.slice(0, 4).map(function (p) { return "(" + p[0] + ", " + p[1] + ")"; }).join(" ") + ")" : "0");
      tr.appendChild(d);
      var sp = el("td");
      sp.appendChild(el("code", null, s.spelling));
      if (s.view_text) {
        var a = el("a", {href: "?layout=" + encodeURIComponent(s.view_text), title: "this spelling in the layout text tab"},
                   " (its own picture)");
        sp.appendChild(a);
      }
      tr.appendChild(sp);
      t.appendChild(tr);
    });
    return t;
  }

  function pictures(answer, hover) {
    var box = el("div", {"class": "rosetta-pictures"});
    answer.systems.forEach(function (s) {
      if (!s.svg) { return; }
      var f = el("figure");
      f.appendChild(el("figcaption", null, s.system + " — " + s.verdict));
      var holder = el("div");
      holder.innerHTML = s.svg;  // the server's own SVG (unilayout.draw)
      f.appendChild(holder);
      box.appendChild(f);
    });
    function mark(index, on) {
      var cells = box.querySelectorAll("g.cell[data-index='" + index + "']");
      for (var i = 0; i < cells.length; i++) { cells[i].classList.toggle("rosetta-hl", on); }
    }
    var last = null;
    box.addEventListener("mouseover", function (e) {
      var g = e.target.closest ? e.target.closest("g.cell") : null;
      if (!g) { return; }
      var index = g.getAttribute("data-index");
      if (last !== null) { mark(last, false); }
      last = index;
      mark(index, true);
      var said = [];
      var figs = box.querySelectorAll("figure");
      for (var i = 0; i < figs.length; i++) {
        var c = figs[i].querySelector("g.cell[data-index='" + index + "']");
        if (c) {
          said.push(figs[i].querySelector("figcaption").textContent.split(" — ")[0] + ": thread " +
                    c.getAttribute("data-thread") + " value " + c.getAttribute("data-value") +
                    (c.getAttribute("data-differs") === "1" ? " (differs)" : ""));
        }
      }
      hover.textContent = "cell " + index + " — " + said.join("; ");
    });
    return box;
  }

  function mount(root, options) {
    options = options || {};
    var api = options.api || "/api/rosetta";
    addStyle();
    root.innerHTML = "";
    root.appendChild(el("h2", null, "Rosetta: one instruction, every system's fragment"));
    var form = el("form", {"class": "rosetta-form"});
    var lab1 = el("label", null, "instruction ");
    var input = el("input", {list: "rosetta-names", spellcheck: "false", autocomplete: "off"});
    input.value = options.instruction || "mma.sync.m16n8k16.f32.f16";
    var names = el("datalist", {id: "rosetta-names"});
    lab1.appendChild(input);
    lab1.appendChild(names);
    var lab2 = el("label", null, "operand ");
    var select = el("select");
    lab2.appendChild(select);
    var button = el("button", {type: "submit"}, "Compare");
    form.appendChild(lab1);
    form.appendChild(lab2);
    form.appendChild(button);
    root.appendChild(form);
    var error = el("div", {"class": "rosetta-error", role: "alert"});
    var note = el("div", {"class": "rosetta-note"});
    var out = el("div");
    var hover = el("div", {"class": "rosetta-hover", "aria-live": "polite"});
    root.appendChild(error);
    root.appendChild(note);
    root.appendChild(out);

    var current = null;  // the instruction of the answer shown
    var asked = 0;        // the latest request: an older answer arriving late is dropped
    function show(operand) {
      error.textContent = "";
      var name = input.value.trim();
      var mine = ++asked;
      post(api, {instruction: name, operand: name === current ? (operand || "") : ""}).then(function (answer) {
        if (mine !== asked) { return; }
        current = answer.instruction;
        select.innerHTML = "";
        answer.operands.forEach(function (op) {
          var o = el("option", {value: op}, op);
          if (op === answer.operand) { o.selected = true; }
          select.appendChild(o);
        });
        note.textContent = "reference: " + answer.reference + "; tile " + answer.shape.join(" x ") +
          (answer.note ? "; " + answer.note : "");
        out.innerHTML = "";
        out.appendChild(table(answer));
        out.appendChild(hover);
        out.appendChild(pictures(answer, hover));
      }).catch(function (e) {
        if (mine !== asked) { return; }
        error.textContent = e.message;
        out.innerHTML = "";
        current = null;
      });
    }

    form.addEventListener("submit", function (e) { e.preventDefault(); show(select.value); });
    select.addEventListener("change", function () { show(select.value); });
    post(api, {list: true}).then(function (d) {
      d.instructions.forEach(function (n) { names.appendChild(el("option", {value: n})); });
    }).catch(function () {});
    current = input.value.trim();  // the operand asked for belongs to the instruction asked for
    show(options.operand || "");
    return {show: show};
  }

  window.UnilayoutRosetta = {mount: mount};

  // On the explorer's page: a <section id="panel-rosetta"> and a tab <button data-panel="rosetta"> in #panels make
  // it a panel (shown when its tab is chosen, filled on first show; "?panel=rosetta&ri=NAME&ro=OPERAND" opens it).
  function wire() {
    var box = document.getElementById("panel-rosetta");
    if (!box || document.getElementById("embedded-view")) { return; }  // a saved page has no server to ask
    var q = new URLSearchParams(location.search);
    var mounted = false;
    function sync(name) {
      box.hidden = name !== "rosetta";
      if (name === "rosetta" && !mounted) {
        mounted = true;
        mount(box, {instruction: q.get("ri") || undefined, operand: q.get("ro") || undefined});
      }
    }
    var navs = document.querySelectorAll("#panels button");
    for (var i = 0; i < navs.length; i++) {
      navs[i].addEventListener("click", function (e) { sync(e.currentTarget.getAttribute("data-panel")); });
    }
    if (q.get("panel") === "rosetta") {
      var nav = document.querySelector("#panels button[data-panel=\"rosetta\"]");
      if (nav) { nav.click(); } else { sync("rosetta"); }
    }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", wire); } else { wire(); }
})();
