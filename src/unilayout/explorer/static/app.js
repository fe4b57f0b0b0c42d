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
    ["device", "#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>"],
    ["Triton", "tensor<32x64xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>"],
    ["metal v2", "tensor<2x2x1x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 64x128, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>>"],
    ["TiledMMA", "SM80_16x8x16_F32F16F16F32_TN (2,2,1)"],
    ["TiledCopy", "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (1,8))"],
    ["XLA", "f32[8,256]{1,0:T(8,128)}"]
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


  // ------------------------------------------------------------ canvas pictures (more than 4096 cells)
  // The view carries the picture as typed arrays (see unilayout.explorer.canvas): base64 of zlib data,
  // each cell's colour (palette index, 0 = not drawn), data-index, padding and attributes, row-major.
  function b64bytes(b64) {
    var bin = atob(b64), n = bin.length, out = new Uint8Array(n);
    for (var i = 0; i < n; i++) { out[i] = bin.charCodeAt(i); }
    return out;
  }

  function decodeArray(d) {
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser cannot decompress the picture (no DecompressionStream)"));
    }
    var stream = new Blob([b64bytes(d.z)]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).arrayBuffer().then(function (buf) {
      var a = d.dtype === "u1" ? new Uint8Array(buf) : d.dtype === "u2" ? new Uint16Array(buf) :
        d.dtype === "i4" ? new Int32Array(buf) : new Float64Array(buf);
      if (!d.delta) { return a; }
      var out = new Float64Array(a.length), acc = 0;
      for (var i = 0; i < a.length; i++) { acc += a[i]; out[i] = acc; }
      return out;
    });
  }

  function lastAtOrBelow(starts, x) {  // largest k with starts[k] <= x, or -1
    var lo = 0, hi = starts.length - 1, k = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (starts[mid] <= x) { k = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return k;
  }

  function hexRgb(h) { return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)]; }

  function CanvasView(containerId, box, data) {
    var self = this, c = data.canvas;
    this.id = containerId; this.data = data; this.c = c; this.arrays = null; this.hover = null;
    var main = containerId === "layout-view";
    box.innerHTML = "<div class=\"canvas-tools\"><button type=\"button\" class=\"canvas-in\"" + (main ? " id=\"canvas-zoom-in\"" : "") +
      " title=\"zoom in\">+</button><button type=\"button\" class=\"canvas-out\"" + (main ? " id=\"canvas-zoom-out\"" : "") +
      " title=\"zoom out\">&minus;</button><button type=\"button\" class=\"canvas-fit\"" + (main ? " id=\"canvas-fit\"" : "") +
      ">Fit</button> <span class=\"canvas-zoom\"></span> <span class=\"canvas-title\"></span></div>" +
      "<div class=\"canvas-stack\"><canvas class=\"layout-canvas\"" + (main ? " id=\"layout-canvas\"" : "") +
      " tabindex=\"0\"></canvas><canvas class=\"canvas-overlay\"></canvas></div>" +
      "<div class=\"canvas-notes\"></div>";
    this.canvas = box.querySelector("canvas.layout-canvas");
    this.ctx = this.canvas.getContext("2d");
    this.overlay = box.querySelector("canvas.canvas-overlay");  // the hovered cell's frame: hover never redraws the picture
    this.octx = this.overlay.getContext("2d");
    box.querySelector(".canvas-title").textContent = c.title;
    box.querySelector(".canvas-notes").textContent = (c.notes || []).join("\n");
    this.zoomText = box.querySelector(".canvas-zoom");
    this.rowY = Float64Array.from(c.row_y); this.colX = Float64Array.from(c.col_x);
    this.pal = c.palette.map(hexRgb);
    this.ink = this.pal.map(function (p) { return p[0] * 0.299 + p[1] * 0.587 + p[2] * 0.114 < 128 ? "#fff" : "#000"; });
    box.querySelector(".canvas-in").addEventListener("click", function () { self.zoomAt(1.6); });
    box.querySelector(".canvas-out").addEventListener("click", function () { self.zoomAt(1 / 1.6); });
    box.querySelector(".canvas-fit").addEventListener("click", function () { self.fit(); self.draw(); });
    var names = Object.keys(c.arrays);
    this.ready = Promise.all(names.map(function (n) { return decodeArray(c.arrays[n]); })).then(function (arrs) {
      self.arrays = {};
      names.forEach(function (n, i) { self.arrays[n] = arrs[i]; });
      self.resize();
      self.buildOverview();
      self.fit();
      self.draw();
      self.attach();
      box.setAttribute("data-painted", "1");
      if (main && window.__unilayoutFirstPaint === undefined) { window.__unilayoutFirstPaint = performance.now(); }
    }, function (e) {
      box.innerHTML = "<p class=\"error\">" + esc(e.message || e) + "</p>";
    });
  }

  CanvasView.prototype.resize = function () {
    var box = this.canvas.parentNode.parentNode, dpr = window.devicePixelRatio || 1;
    var w = Math.max(320, box.clientWidth - 4 || 900);
    var h = Math.max(300, Math.min(Math.round(window.innerHeight * 0.7), Math.round(w * this.c.height / this.c.width) + 8));
    this.w = w; this.h = h; this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr); this.canvas.height = Math.round(h * dpr);
    this.canvas.style.width = w + "px"; this.canvas.style.height = h + "px";
    this.overlay.width = this.canvas.width; this.overlay.height = this.canvas.height;
    this.overlay.style.width = w + "px"; this.overlay.style.height = h + "px";
  };

  // One image of the whole picture at up to 4096 px a side, painted from the arrays (gaps included).
  CanvasView.prototype.buildOverview = function () {
    var c = this.c, W = c.width, H = c.height;
    var s0 = Math.min(1, 4096 / W, 4096 / H), ow = Math.max(1, Math.ceil(W * s0)), oh = Math.max(1, Math.ceil(H * s0));
    var colOf = new Int32Array(ow), rowOf = new Int32Array(oh), k, x;
    for (k = 0; k < ow; k++) {
      x = (k + 0.5) / s0;
      var cc = lastAtOrBelow(this.colX, x);
      colOf[k] = cc >= 0 && x < this.colX[cc] + c.cell_w - (s0 >= 0.5 ? 1 : 0) ? cc : -1;
    }
    for (k = 0; k < oh; k++) {
      x = (k + 0.5) / s0;
      var rr = lastAtOrBelow(this.rowY, x);
      rowOf[k] = rr >= 0 && x < this.rowY[rr] + c.cell_h - (s0 >= 0.5 ? 1 : 0) ? rr : -1;
    }
    var cv = document.createElement("canvas");
    cv.width = ow; cv.height = oh;
    var g = cv.getContext("2d"), img = g.createImageData(ow, oh), px = new Uint32Array(img.data.buffer);
    var pal32 = new Uint32Array(this.pal.length);
    for (k = 0; k < this.pal.length; k++) { var p = this.pal[k]; pal32[k] = (255 << 24) | (p[2] << 16) | (p[1] << 8) | p[0]; }
    var color = this.arrays.color, C = c.cols, white = pal32[0];
    for (var py = 0; py < oh; py++) {
      var r = rowOf[py], base = py * ow;
      if (r < 0) { px.fill(white, base, base + ow); continue; }
      var rowBase = r * C;
      for (var q = 0; q < ow; q++) {
        var col = colOf[q];
        px[base + q] = col < 0 ? white : pal32[color[rowBase + col]];
      }
    }
    g.putImageData(img, 0, 0);
    this.ov = cv; this.s0 = s0;
  };

  CanvasView.prototype.fit = function () {
    var c = this.c;
    this.s = Math.min(this.w / c.width, this.h / c.height);
    this.tx = (this.w - c.width * this.s) / 2; this.ty = (this.h - c.height * this.s) / 2;
    this.fitScale = this.s;
  };

  CanvasView.prototype.zoomAt = function (f, mx, my) {
    if (mx === undefined) { mx = this.w / 2; my = this.h / 2; }
    var s2 = Math.max(this.fitScale / 4, Math.min(64, this.s * f));
    var x = (mx - this.tx) / this.s, y = (my - this.ty) / this.s;
    this.s = s2; this.tx = mx - x * s2; this.ty = my - y * s2;
    this.draw();
  };

  CanvasView.prototype.cellAt = function (mx, my) {
    var c = this.c, x = (mx - this.tx) / this.s, y = (my - this.ty) / this.s;
    var col = lastAtOrBelow(this.colX, x), row = lastAtOrBelow(this.rowY, y);
    if (col < 0 || row < 0 || x >= this.colX[col] + c.cell_w || y >= this.rowY[row] + c.cell_h) { return null; }
    var k = row * c.cols + col;
    if (!this.arrays.color[k]) { return null; }
    return {row: row, col: col, k: k};
  };

  // Where cell (row, col) is on the page, relative to the canvas (tests and the benchmark use it).
  CanvasView.prototype.cellCenter = function (row, col) {
    var c = this.c;
    return [this.tx + (this.colX[col] + c.cell_w / 2) * this.s, this.ty + (this.rowY[row] + c.cell_h / 2) * this.s];
  };

  // Zoom so that cells are ``cellPx`` pixels wide and centre cell (row, col) (tests and the benchmark use it).
  CanvasView.prototype.centerOn = function (row, col, cellPx) {
    var c = this.c;
    this.s = Math.max(this.fitScale / 4, Math.min(64, (cellPx || 24) / c.cell_w));
    this.tx = this.w / 2 - (this.colX[col] + c.cell_w / 2) * this.s;
    this.ty = this.h / 2 - (this.rowY[row] + c.cell_h / 2) * this.s;
    this.draw();
  };

  // [row, col] of the cell whose data-index is ``index`` (first one), or null.
  CanvasView.prototype.find = function (index) {
    var a = this.arrays.index, C = this.c.cols;
    for (var k = 0; k < a.length; k++) { if (a[k] === index && this.arrays.color[k]) { return [Math.floor(k / C), k % C]; } }
    return null;
  };

  CanvasView.prototype.draw = function () {
    var ctx = this.ctx, c = this.c, s = this.s, tx = this.tx, ty = this.ty, self = this;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, this.w, this.h);
    var c0 = Math.max(0, lastAtOrBelow(this.colX, -tx / s)), c1 = Math.max(0, lastAtOrBelow(this.colX, (this.w - tx) / s));
    var r0 = Math.max(0, lastAtOrBelow(this.rowY, -ty / s)), r1 = Math.max(0, lastAtOrBelow(this.rowY, (this.h - ty) / s));
    var visible = (c1 - c0 + 1) * (r1 - r0 + 1), cw = c.cell_w * s, ch = c.cell_h * s;
    if (cw < 5 || visible > 160000) {
      ctx.imageSmoothingEnabled = s < this.s0;
      ctx.drawImage(this.ov, tx, ty, this.ov.width / this.s0 * s, this.ov.height / this.s0 * s);
    } else {
      var color = this.arrays.color, pal = this.pal, border = cw >= 8 ? 1 : 0;
      var from = c.labels_from ? this.arrays[c.labels_from] : null;
      var labels = (c.labels || from) && cw >= 16 && ch >= 9, font = Math.min(12 * s, ch * 0.62);
      if (labels) { ctx.font = font.toFixed(1) + "px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle"; }
      for (var r = r0; r <= r1; r++) {
        var y = ty + this.rowY[r] * s;
        for (var q = c0; q <= c1; q++) {
          var k = r * c.cols + q, ci = color[k];
          if (!ci) { continue; }
          var x = tx + this.colX[q] * s, p = pal[ci];
          ctx.fillStyle = "rgb(" + p[0] + "," + p[1] + "," + p[2] + ")";
          ctx.fillRect(x, y, cw - border, ch - border);
          var text = labels ? (from ? String(from[k]) : c.labels[k]) : "";
          if (text) {
            ctx.fillStyle = this.ink[ci];
            var lines = text.split("\n"), step = Math.min(12 * s, ch / lines.length);
            for (var j = 0; j < lines.length; j++) {
              ctx.fillText(lines[j], x + cw / 2, y + ch / 2 + (j - (lines.length - 1) / 2) * step, cw - 2);
            }
          }
        }
      }
    }
    // Outlines and lines: one path per colour and width.
    var paths = {};
    function path(color, width) {
      var key = color + "/" + width;
      if (!paths[key]) { paths[key] = {color: color, width: Math.max(1, Math.min(width, width * s * 2)), segs: []}; }
      return paths[key].segs;
    }
    c.outlines.forEach(function (o) { path(o[4], o[5]).push(["r", tx + o[0] * s, ty + o[1] * s, o[2] * s, o[3] * s]); });
    c.lines.forEach(function (l) { path(l[4], l[5]).push(["l", tx + l[0] * s, ty + l[1] * s, tx + l[2] * s, ty + l[3] * s]); });
    Object.keys(paths).forEach(function (key) {
      var p = paths[key];
      ctx.strokeStyle = p.color; ctx.lineWidth = p.width;
      ctx.beginPath();
      p.segs.forEach(function (g) {
        if (g[0] === "r") { ctx.rect(g[1], g[2], g[3], g[4]); } else { ctx.moveTo(g[1], g[2]); ctx.lineTo(g[3], g[4]); }
      });
      ctx.stroke();
    });
    ctx.textBaseline = "middle";
    c.texts.forEach(function (t) {
      var size = (t[3] >= 2 ? 15 : 11) * s;
      if (size < 7) { return; }
      ctx.font = size.toFixed(1) + "px sans-serif"; ctx.fillStyle = t[5];
      ctx.textAlign = t[4] === "middle" ? "center" : t[4] === "end" ? "right" : "left";
      ctx.fillText(t[2], tx + t[0] * s, ty + t[1] * s);
    });
    this.drawHover();
    this.zoomText.textContent = Math.round(100 * s) + "%";
  };

  CanvasView.prototype.drawHover = function () {
    var o = this.octx, c = this.c, s = this.s;
    o.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    o.clearRect(0, 0, this.w, this.h);
    if (!this.hover) { return; }
    var h = this.hover, cw = Math.max(c.cell_w * s, 3), ch = Math.max(c.cell_h * s, 3);
    o.strokeStyle = "#d40000"; o.lineWidth = 2;
    o.strokeRect(this.tx + this.colX[h.col] * s - 1, this.ty + this.rowY[h.row] * s - 1, cw + 2, ch + 2);
  };

  CanvasView.prototype.attach = function () {
    var self = this, cv = this.canvas, drag = null;
    function pos(e) { var r = cv.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; }
    cv.addEventListener("wheel", function (e) {
      e.preventDefault();
      var p = pos(e);
      self.zoomAt(Math.exp(-e.deltaY * 0.0015), p[0], p[1]);
    }, {passive: false});
    cv.addEventListener("mousedown", function (e) { var p = pos(e); drag = {x: p[0], y: p[1], tx: self.tx, ty: self.ty, moved: false}; });
    window.addEventListener("mouseup", function () { setTimeout(function () { drag = null; }, 0); });
    cv.addEventListener("mousemove", function (e) {
      var p = pos(e);
      if (drag && (e.buttons & 1)) {
        if (Math.abs(p[0] - drag.x) + Math.abs(p[1] - drag.y) > 3) { drag.moved = true; }
        if (drag.moved) { self.tx = drag.tx + p[0] - drag.x; self.ty = drag.ty + p[1] - drag.y; self.draw(); return; }
      }
      if (pinned) { return; }
      self.showAt(p[0], p[1]);
    });
    cv.addEventListener("click", function (e) {
      if (drag && drag.moved) { return; }
      var p = pos(e), cell = self.cellAt(p[0], p[1]);
      if (!cell || (pinned && pinned.container === self.id && pinned.k === cell.k)) { pinned = null; return; }
      pinned = {container: self.id, k: cell.k};
      self.show(cell);
    });
    cv.addEventListener("dblclick", function (e) { var p = pos(e); self.zoomAt(2, p[0], p[1]); });
    cv.addEventListener("keydown", function (e) {
      if (e.key === "+" || e.key === "=") { self.zoomAt(1.6); } else if (e.key === "-") { self.zoomAt(1 / 1.6); } else if (e.key === "0") { self.fit(); self.draw(); }
    });
  };

  CanvasView.prototype.showAt = function (mx, my) {
    var cell = this.cellAt(mx, my);
    if (cell) { this.show(cell); }
    return cell;
  };

  CanvasView.prototype.show = function (cell) {
    this.hover = cell;
    this.drawHover();
    var c = this.c, a = this.arrays, k = cell.k, d = this.data;
    var what = c.cell_class === "core" ? "core" : "cell";
    var html = "<h3>" + esc(d.family) + " " + what + " (row " + cell.row + ", column " + cell.col + ")" +
      (a.padding[k] ? " (padding)" : "") + "</h3><table><tr><th>data-index</th><td>" + a.index[k] + "</td></tr>";
    var label = c.labels ? c.labels[k] : c.labels_from ? String(a[c.labels_from][k]) : "";
    if (label) { html += "<tr><th>label</th><td>" + esc(label).replace(/\n/g, " ") + "</td></tr>"; }
    Object.keys(a).forEach(function (n) {
      if (n === "color" || n === "index" || n === "padding" || n === "cell") { return; }
      html += "<tr><th>" + esc(n) + "</th><td>" + a[n][k] + "</td></tr>";
    });
    html += "<tr><th>padding</th><td>" + (a.padding[k] ? "yes" : "no") + "</td></tr></table>";
    $("cell-details").innerHTML = html;
  };

  // ------------------------------------------------------------ views and cells
  function mount(containerId, data) {
    var box = $(containerId);
    if (!data) { box.innerHTML = ""; delete views[containerId]; return; }
    box.removeAttribute("data-painted");
    if (data.canvas) {
      box.classList.remove("stale");
      box.classList.add("has-canvas");
      views[containerId] = {data: data, cells: [], byGroup: {}, lit: [], canvas: new CanvasView(containerId, box, data)};
      if (pinned && pinned.container === containerId) { pinned = null; }
      return;
    }
    box.classList.remove("has-canvas");
    box.classList.remove("fit");
    box.innerHTML = data.svg;
    box.classList.remove("stale");
    fitWidth(box);
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
    if (v.canvas) {
      var C = v.canvas.c.cols;
      v.canvas.show({row: Math.floor(k / C), col: k % C, k: k});
      return;
    }
    Object.keys(views).forEach(function (id) { clearLit(views[id]); });
    var d = v.data, el = v.cells[k];
    var html = "<h3>" + esc(d.family) + " cell " + k + (el && el.classList.contains("padding") ? " (padding)" : "") +
      (CAPTIONS[containerId] && containerId !== "layout-view" ? " of " + esc(CAPTIONS[containerId]) : "") + "</h3>";
    html += table(d, k, "<tr><th>data-index</th><td>" + esc(el ? el.getAttribute("data-index") : "") + "</td></tr>");
    var name = groupName(v);
    if (name !== null) {
      var key = d.groups[name][k], same = members(v, name, key);
      // a TiledMMA / TiledCopy: every cell the thread holds (A, B and C; source and destination), not only
      // the cells it is the first owner of
      if (name === "thread" && d.thread_cells && d.thread_cells[key]) { same = d.thread_cells[key]; }
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
      if (views[containerId] && views[containerId].canvas) { return; }
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

  // A picture wider than its box (a TiledMMA's three operands side by side) is scaled to the box's width, down
  // to half size, and the box grows to its height: nothing of it is clipped. Wider ones keep their size and scroll.
  var MIN_FIT = 0.5;
  function fitWidth(box) {
    var svg = box.querySelector("svg"), w = svg ? +svg.getAttribute("width") : 0, room = box.clientWidth - 2;
    if (!w || w <= room || room / w < MIN_FIT) { return; }
    svg.style.width = room + "px";
    svg.style.height = "auto";
    box.classList.add("fit");
  }

  // ------------------------------------------------------------ URL state
  function val(id) { return $(id).value; }
  var FORM_KEYS = {
    metal: [["ms", "metal-shape"], ["mg", "metal-grid"], ["mt", "metal-tile"], ["mc", "metal-collapse"], ["ma", "metal-align"], ["mo", "metal-oob"]],
    algebra: [["aa", "algebra-a"], ["aop", "algebra-op"], ["ab", "algebra-b"]],
    encodings: [["es", "enc-shape"], ["eak", "enc-a-kind"], ["eap", "enc-a-params"], ["ebk", "enc-b-kind"], ["ebp", "enc-b-params"]]
  };

  // Dynamic leaves (CuTe IR's ?, ?{div=N}, ?{i64 div=N}): one field per leaf, in reading order (the order they
  // print in); their values go to the server as the shape (the cute family binds a dynamic layout's leaves to it).
  var DYN_TEXT = /^\s*(?:[!#](?:cute|fly)\.|tensor\s*<\s*ptr|S<|[0-9(?])/;
  function dynLeaves(text) {
    if (!DYN_TEXT.test(text)) { return []; }
    return text.match(/\?(?:\{[^}]*\})?/g) || [];
  }
  function syncDyn(text) {
    var leaves = dynLeaves(text), box = $("dyn-fields"), old = box.querySelectorAll("input");
    $("dyn-row").hidden = leaves.length === 0;
    var same = old.length === leaves.length;
    for (var i = 0; same && i < leaves.length; i++) { same = old[i].placeholder === leaves[i]; }
    if (same) { return; }
    box.textContent = "";
    leaves.forEach(function (leaf, k) {
      var f = document.createElement("input");
      f.type = "text"; f.size = 5; f.placeholder = leaf; f.title = "value of dynamic leaf " + k + " (" + leaf + ")";
      f.addEventListener("change", apply);
      box.appendChild(f);
    });
  }
  function dynValues() {  // "" without dynamic leaves, null while a field is empty, else "v0xv1x..."
    if ($("dyn-row").hidden) { return ""; }
    var vals = Array.prototype.map.call($("dyn-fields").querySelectorAll("input"), function (f) { return f.value.trim(); });
    return vals.indexOf("") >= 0 ? null : vals.join("x");
  }

  function writeUrl() {
    if (EMBEDDED) { return; }
    var q = new URLSearchParams();
    var text = val("layout-input");
    if (text) { q.set("layout", text); }
    if (val("affine-shape")) { q.set("shape", val("affine-shape")); }
    if (dynValues()) { q.set("dyn", dynValues()); }
    if (val("layout-mesh")) { q.set("mesh", val("layout-mesh")); }
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
    if (q.has("mesh")) { $("layout-mesh").value = q.get("mesh"); }
    state.group = q.get("group") || "";
    if (q.has("layout") && q.has("dyn")) {
      syncDyn(q.get("layout"));
      var dyn = q.get("dyn").split("x"), fields = $("dyn-fields").querySelectorAll("input");
      for (var i = 0; i < fields.length && i < dyn.length; i++) { fields[i].value = dyn[i]; }
    }
    return {layout: q.get("layout"), panel: q.get("panel") || "layout"};
  }

  // ------------------------------------------------------------ actions
  var seq = 0, lastRequest = null;
  // Nothing of one view outlives it: a new answer or an error clears the picture, its facts, groups, per-core
  // table, note and the details of a pinned cell, so none of them is read as the next value's.
  function clearMain() {
    if (pinned && pinned.container === "layout-view") { pinned = null; }
    mount("layout-view", null);
    $("layout-summary").textContent = "";
    $("layout-note").textContent = ""; $("layout-note").hidden = true;
    $("facts-box").hidden = true; $("layout-facts").innerHTML = "";
    $("core-table-box").hidden = true; $("core-table").innerHTML = "";
    $("code-box").hidden = true; $("layout-code").textContent = ""; showError($("code-error"), null);
    $("group-by").innerHTML = "";
    $("cell-details").innerHTML = "";
  }

  function showMain(data) {
    clearMain();
    mount("layout-view", data);
    // total_text: the exact count of a summarised layout (past 2^53 a JSON number is not exact in JavaScript)
    var drawn = data.total !== undefined && data.total !== data.count ?
      data.count + " of " + (data.total_text || data.total) + " cells drawn" : data.count + " cells";
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
    $("code-box").hidden = !!EMBEDDED;
    if ($("code-box").open) { showCode(); }
  }

  // The code box: the layout's index code in the chosen language, asked for when the box is open.
  var codeSeq = 0;
  function showCode() {
    if (EMBEDDED) { return Promise.resolve(); }
    var my = ++codeSeq;
    var body = {text: val("layout-input"), lang: $("code-lang").value, inverse: $("code-inverse").checked};
    if (val("affine-shape").trim()) { body.shape = val("affine-shape"); } else if (dynValues()) { body.shape = dynValues(); }
    if (val("layout-mesh").trim()) { body.mesh = val("layout-mesh"); }
    return post("/api/code", body).then(function (r) {
      if (my !== codeSeq) { return; }
      if (!r.ok) { $("layout-code").textContent = ""; showError($("code-error"), r.json.error); return; }
      showError($("code-error"), null);
      $("layout-code").textContent = r.json.code;
    });
  }

  function apply() {
    var text = val("layout-input");
    if (EMBEDDED) {
      if (text !== EMBEDDED.text) {
        showError($("layout-error"), {message: "this saved page shows one layout; run `unilayout serve` to explore other layouts"});
      } else { showError($("layout-error"), null); }
      return Promise.resolve();
    }
    syncDyn(text);
    var dyn = dynValues();
    var request = text + "\u0000" + val("affine-shape") + "\u0000" + val("layout-mesh") + "\u0000" + dyn;
    if (request === lastRequest) { return Promise.resolve(); }  // Enter then blur: one answer is enough
    lastRequest = request;
    var my = ++seq;
    writeUrl();
    if (!text.trim()) {
      showError($("layout-error"), {message: "enter layout text, e.g. (4,8):(8,1)", position: 0, text: ""});
      return Promise.resolve();
    }
    if (dyn === null) {  // a dynamic layout is drawn once every ? has its value
      clearMain();
      showError($("layout-error"), {message: "give a value for each dynamic leaf (?) in the fields under the text: " +
        "a multiple of its div"});
      return Promise.resolve();
    }
    var body = {text: text};
    if (val("affine-shape").trim()) { body.shape = val("affine-shape"); } else if (dyn) { body.shape = dyn; }
    if (val("layout-mesh").trim()) { body.mesh = val("layout-mesh"); }
    return post("/api/view", body).then(function (r) {
      if (my !== seq) { return; }
      if (r.status === 0) { lastRequest = null; }  // the server was unreachable: Enter tries again
      if (!r.ok) {
        clearMain();
        showError($("layout-error"), r.json.error);
        return;
      }
      showError($("layout-error"), null);
      if (r.json.uses_shape === false) {  // a value with a box of its own ignored the shape box: do not carry it on
        $("affine-shape").value = "";
        lastRequest = text + "\u0000\u0000" + val("layout-mesh") + "\u0000" + dyn;
        writeUrl();
      }
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
      lastRequest = r.json.text + "\u0000" + val("affine-shape") + "\u0000" + val("layout-mesh");
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

  // Triton encodings are chosen from forms: one field per parameter of the kind (numbers, lists as "1, 2",
  // booleans as checkboxes); the hidden #enc-X-params keeps them as JSON for the URL.
  function encParams(side) {
    try { return JSON.parse(val("enc-" + side + "-params") || "{}"); } catch (e) { return {}; }
  }

  function encFields(side) {
    var kind = val("enc-" + side + "-kind"), box = $("enc-" + side + "-fields"), given = encParams(side);
    var defaults = ENCODINGS[kind] || {};
    box.innerHTML = "";
    Object.keys(defaults).forEach(function (key) {
      var v = key in given ? given[key] : defaults[key], type = typeof defaults[key] === "boolean" ? "bool" :
        Array.isArray(defaults[key]) ? "list" : "int";
      var label = document.createElement("label"), input = document.createElement("input");
      input.id = "enc-" + side + "-" + key; input.setAttribute("data-param", key); input.setAttribute("data-type", type);
      input.spellcheck = false;
      if (type === "bool") { input.type = "checkbox"; input.checked = !!v; } else {
        input.type = "text"; input.size = type === "list" ? 9 : 3; input.value = type === "list" ? v.join(", ") : String(v);
      }
      input.addEventListener("change", function () { syncParams(side); writeUrl(); });
      label.appendChild(document.createTextNode(key + " "));
      label.appendChild(input);
      box.appendChild(label);
    });
    syncParams(side);
  }

  function syncParams(side) {
    var out = {}, inputs = $("enc-" + side + "-fields").querySelectorAll("input");
    for (var i = 0; i < inputs.length; i++) {
      var el = inputs[i], key = el.getAttribute("data-param"), type = el.getAttribute("data-type");
      if (type === "bool") { out[key] = el.checked; continue; }
      if (type === "list") {
        out[key] = el.value.split(/[\s,x]+/).filter(function (t) { return t !== ""; }).map(function (t) { return /^-?\d+$/.test(t) ? +t : t; });
      } else { out[key] = /^-?\d+$/.test(el.value.trim()) ? +el.value.trim() : el.value; }
    }
    $("enc-" + side + "-params").value = Object.keys(out).length ? JSON.stringify(out) : "";
  }

  function runEncodings() {
    syncParams("a"); syncParams("b");
    writeUrl();
    var body = {shape: val("enc-shape"), a: {kind: val("enc-a-kind"), params: encParams("a")}};
    if (val("enc-b-kind") !== "none") { body.b = {kind: val("enc-b-kind"), params: encParams("b")}; }
    return post("/api/encodings", body).then(function (r) {
      if (!r.ok) {
        showError($("enc-error"), r.json.error);
        mount("enc-a-view", null); mount("enc-b-view", null);
        $("enc-levels").textContent = ""; $("enc-a-text").textContent = ""; $("enc-b-text").textContent = "";
        return;
      }
      showError($("enc-error"), null);
      $("enc-a-text").textContent = r.json.a_text || "";
      $("enc-b-text").textContent = r.json.b_text || "";
      mount("enc-a-view", r.json.a);
      mount("enc-b-view", r.json.b);
      links = (r.json.links || []).map(function (l) { return ["enc-" + l[0] + "-view", l[1], "enc-" + l[2] + "-view", l[3]]; });
      $("enc-levels").textContent = r.json.notes.join("; ");
    });
  }

  function setPanel(name) {
    if (name !== state.panel) {  // another panel: the errors of the one left do not follow
      ["metal-error", "algebra-error", "enc-error"].forEach(function (id) { showError($(id), null); });
    }
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
        var side = id === "enc-a-kind" ? "a" : "b";
        $("enc-" + side + "-params").value = ENCODINGS[sel.value] ? JSON.stringify(ENCODINGS[sel.value]) : "";
        encFields(side);
      });
    });
    $("enc-a-kind").value = "blocked"; $("enc-a-params").value = JSON.stringify(ENCODINGS.blocked);
    $("enc-b-kind").value = "nvidia_mma"; $("enc-b-params").value = JSON.stringify(ENCODINGS.nvidia_mma);
    encFields("a"); encFields("b");

    var input = $("layout-input");
    input.addEventListener("change", apply);
    // Enter shows the layout; Shift+Enter adds a line (TTGIR alias lines, then the layout)
    input.addEventListener("keydown", function (e) { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); apply(); } });
    $("layout-apply").addEventListener("click", apply);
    $("code-box").addEventListener("toggle", function () { if ($("code-box").open) { showCode(); } });
    $("code-lang").addEventListener("change", showCode);
    $("code-inverse").addEventListener("change", showCode);
    $("affine-shape").addEventListener("change", apply);
    $("layout-mesh").addEventListener("change", apply);
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
    encFields("a"); encFields("b");
    setPanel(["layout", "metal", "algebra", "encodings"].indexOf(start.panel) >= 0 ? start.panel : "layout");
    if (start.layout !== null) { input.value = start.layout; apply(); }
    if (state.panel === "algebra") { runAlgebra(); }
    if (state.panel === "encodings") { runEncodings(); }
  }

  window.unilayoutExplorer = {views: views, CanvasView: CanvasView, post: post, esc: esc};

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
