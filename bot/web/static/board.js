/* The board as SVG, from the viewer's side, in the same geometry as renderers/layout.py: the viewer's
   points 1-12 run right to left along the top, 13-24 left to right along the bottom, his home (19-24) is
   the bottom-right quarter next to his tray; the opponent's tray is the top one. Portes/Plakoto (as
   renderers/tavli_layout.py): the viewer's checkers on the bar wait in its top half, the opponent's in the
   bottom half; a pinned checker lies at the edge of its point, under its pinner's stack, with a mark. */
(function (FV) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var U = 10, FRAME = 4, BAR = 8, TRAY = 14, PH = 50, LBL = 6, GAP = 14, STACK = 5;
  var LEFT = FRAME, RIGHT = FRAME + 6 * U + BAR, BOARD_R = RIGHT + 6 * U;
  var TRAY_X = BOARD_R + FRAME, W = TRAY_X + TRAY + FRAME;
  var TOP = LBL, BOTTOM = LBL + 2 * PH + GAP, H = BOTTOM + LBL, MID = (TOP + BOTTOM) / 2;
  var CHECKERS = 15;

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  /* Left x of the viewer's point p (1-24). */
  function pointX(p) {
    if (p <= 6) return RIGHT + (6 - p) * U;
    if (p <= 12) return LEFT + (12 - p) * U;
    if (p <= 18) return LEFT + (p - 13) * U;
    return RIGHT + (p - 19) * U;
  }
  /* Centre of the slot-th checker (0 = at the edge) on point p. */
  function centre(p, slot) {
    var s = Math.min(slot, STACK - 1);
    return [pointX(p) + U / 2, p <= 12 ? TOP + U / 2 + s * U : BOTTOM - U / 2 - s * U];
  }
  function trayBox(mine) {
    return mine ? [TRAY_X, MID + GAP / 4, TRAY, BOTTOM - MID - GAP / 4] : [TRAY_X, TOP, TRAY, MID - GAP / 4 - TOP];
  }

  /* Centre of the slot-th checker (0 = next to the middle) on the bar: the viewer's above, the opponent's below. */
  function barCentre(mine, slot) {
    var s = Math.min(slot, STACK - 1);
    return [LEFT + 6 * U + BAR / 2, mine ? MID - U / 2 - s * U : MID + U / 2 + s * U];
  }

  /* Which target lies under the board coordinates (x, y): a point 1-24, 0 (the bar), "off" (the viewer's
     tray), or null. */
  function hit(x, y) {
    if (x >= TRAY_X && x <= TRAY_X + TRAY && y >= MID && y <= BOTTOM) return "off";
    if (y < TOP || y > BOTTOM) return null;
    if (x >= LEFT + 6 * U && x < RIGHT) return 0;
    var top = y < MID, col;
    if (x >= LEFT && x < LEFT + 6 * U) col = Math.floor((x - LEFT) / U);
    else if (x >= RIGHT && x < RIGHT + 6 * U) col = 6 + Math.floor((x - RIGHT) / U);
    else return null;
    return top ? 12 - col : 13 + col;
  }

  function checker(g, cx, cy, colour, cls) {
    el("circle", { cx: cx, cy: cy, r: U / 2 - 0.45, "class": "ck ck" + colour + (cls ? " " + cls : "") }, g);
  }

  function dieFace(g, x, y, value, used) {
    var grp = el("g", { "class": "die" + (used ? " used" : "") }, g);
    el("rect", { x: x, y: y, width: 9, height: 9, rx: 1.6 }, grp);
    var spots = { 1: [[4.5, 4.5]], 2: [[2.4, 2.4], [6.6, 6.6]], 3: [[2.4, 2.4], [4.5, 4.5], [6.6, 6.6]],
      4: [[2.4, 2.4], [6.6, 2.4], [2.4, 6.6], [6.6, 6.6]], 5: [[2.4, 2.4], [6.6, 2.4], [4.5, 4.5], [2.4, 6.6], [6.6, 6.6]],
      6: [[2.4, 2.2], [6.6, 2.2], [2.4, 4.5], [6.6, 4.5], [2.4, 6.8], [6.6, 6.8]] }[value] || [];
    spots.forEach(function (s) { el("circle", { cx: x + s[0], cy: y + s[1], r: 0.95 }, grp); });
  }

  /* The middle bar; in Portes its checkers: the viewer's (his point 0, a source when he must enter) and the
     opponent's, each stack with its count when it is taller than the bar shows. */
  function drawBar(svg, scene, colours, targets, sources) {
    var g = el("g", { "class": "barpt" + (sources.indexOf(0) >= 0 ? " source" : "") + (scene.selected === 0 ? " selected" : ""),
      "data-point": "0", tabindex: scene.focusPoint === 0 ? "0" : "-1", role: "button",
      "aria-label": scene.barLabel ? scene.barLabel((scene.bar || [0, 0])[0]) : "bar" }, svg);
    el("rect", { x: LEFT + 6 * U, y: TOP, width: BAR, height: BOTTOM - TOP, "class": "bar" }, g);
    [true, false].forEach(function (mine) {
      var n = (scene.bar || [0, 0])[mine ? 0 : 1] || 0, colour = colours[mine ? 0 : 1], shown = Math.min(n, STACK);
      var stack = el("g", { "class": "barstack " + (mine ? "mine" : "theirs"), "data-count": String(n) }, g);
      for (var s = 0; s < shown; s++) {
        var c = barCentre(mine, s), cls = s === shown - 1 && mine && scene.selected === 0 ? "picked" : "";
        checker(stack, c[0], c[1], colour, cls);
        if (s === shown - 1 && n > shown) el("text", { x: c[0], y: c[1] + 1.5, "class": "count cnt" + colour }, stack).textContent = String(n);
      }
    });
  }

  /* Where an arrow of the last play starts or ends: the top checker of a point, the bar, or the tray. */
  function anchor(p, mine) {
    if (p === 0) return barCentre(mine, 0);
    if (p === "off") { var b = trayBox(mine); return [b[0] + b[2] / 2, b[1] + b[3] / 2]; }
    return centre(p, 0);
  }

  /* The last play's steps as arrows; a landing that hit (Portes) or pinned (Plakoto) is marked. */
  function drawArrows(svg, arrows) {
    if (!arrows.length) return;
    var g = el("g", { "class": "arrows" }, svg);
    arrows.forEach(function (a) {
      var p0 = anchor(a.from, a.mine), p1 = anchor(a.to, a.mine);
      var line = el("line", { x1: p0[0], y1: p0[1], x2: p1[0], y2: p1[1], "class": "arrow" + (a.hit ? " hit" : ""),
        "data-from": String(a.from), "data-to": String(a.to) }, g);
      line.setAttribute("data-hit", a.hit ? "1" : "0");
      el("circle", { cx: p1[0], cy: p1[1], r: 1.2, "class": "arrowhead" + (a.hit ? " hit" : "") }, g);
      if (a.hit) el("path", { d: "M" + (p1[0] - 3) + " " + (p1[1] - 3) + "l6 6m0 -6l-6 6", "class": "hitmark" }, g);
    });
  }

  /* Draw `scene` into the <svg> `svg` (its children replaced). scene: {points: 24 ints in the viewer's
     numbering (>0 his), off: [his, opponent's], colours: [his, opponent's] (0 light, 1 dark), dice, usedDice
     (values of the dice spent), diceMine, marks: {from: [], to: []}, sources, targets (arrays of points or
     "off"), selected, focusPoint (the one point in the Tab order; arrows reach the others), label(point,
     count, whose, pin) -> aria text, trayLabel; Portes/Plakoto: bar: [his, opponent's], pins: 24 ints (+1 a
     checker of his pinned there, -1 the opponent's), mothers: [his start point, the opponent's] (Plakoto),
     arrows: [{from (0 = bar), to (point or "off"), hit}], hitTargets (targets where the step hits or pins),
     barLabel(count)}. */
  function draw(svg, scene) {
    var focused = document.activeElement && document.activeElement.getAttribute &&
      svg.contains(document.activeElement) ? document.activeElement.getAttribute("data-point") : null;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    el("rect", { x: 0, y: 0, width: W, height: H, rx: 2, "class": "frame" }, svg);
    el("rect", { x: LEFT, y: TOP, width: 6 * U, height: BOTTOM - TOP, "class": "felt" }, svg);
    el("rect", { x: RIGHT, y: TOP, width: 6 * U, height: BOTTOM - TOP, "class": "felt" }, svg);
    var targets = scene.targets || [], sources = scene.sources || [], marks = scene.marks || { from: [], to: [] };
    var colours = scene.colours || [0, 1], mothers = scene.mothers || [null, null], hitTargets = scene.hitTargets || [];
    for (var p = 1; p <= 24; p++) {
      var x = pointX(p), top = p <= 12, count = scene.points[p - 1] || 0, n = Math.abs(count);
      var whose = count > 0 ? 0 : 1, colour = colours[whose];
      var pin = (scene.pins || [])[p - 1] || 0, first = pin ? 1 : 0, shown = Math.min(n, STACK - first);
      var g = el("g", { "class": "pt" + (targets.indexOf(p) >= 0 ? " target" : "") +
        (sources.indexOf(p) >= 0 ? " source" : "") + (scene.selected === p ? " selected" : ""),
        "data-point": String(p), tabindex: scene.focusPoint === p ? "0" : "-1", role: "button",
        "aria-label": scene.label ? scene.label(p, n, whose, pin) : String(p) }, svg);
      el("rect", { x: x, y: top ? TOP : MID, width: U, height: top ? MID - TOP : BOTTOM - MID, "class": "hitbox" }, g);
      var tip = top ? TOP + PH * 0.92 : BOTTOM - PH * 0.92, base = top ? TOP : BOTTOM;
      el("path", { d: "M" + x + " " + base + "L" + (x + U) + " " + base + "L" + (x + U / 2) + " " + tip + "Z",
        "class": "tri " + ((p % 2) ? "ta" : "tb") }, g);
      if (pin) {  // the pinned checker at the edge, under its pinner, marked
        var pc = centre(p, 0), pinWhose = pin > 0 ? 0 : 1;
        checker(g, pc[0], pc[1], colours[pinWhose], "pinned" + (mothers[pinWhose] === p ? " mother" : ""));
        el("path", { d: "M" + (pc[0] - 2.2) + " " + (pc[1] - 2.2) + "l4.4 4.4m0 -4.4l-4.4 4.4", "class": "pinmark" }, g);
      }
      for (var s = 0; s < shown; s++) {
        var c = centre(p, first + s), last = s === shown - 1;
        var cls = last && marks.to.indexOf(p) >= 0 ? "moved" : "";
        if (last && scene.selected === p) cls += " picked";
        if (s === 0 && !pin && mothers[whose] === p) cls += " mother";
        checker(g, c[0], c[1], colour, cls);
        if (last && n > shown) {
          el("text", { x: c[0], y: c[1] + 1.5, "class": "count cnt" + colour }, g).textContent = String(n);
        }
      }
      if (marks.from.indexOf(p) >= 0 && n + first < STACK) {
        var gh = centre(p, n + first);
        el("circle", { cx: gh[0], cy: gh[1], r: U / 2 - 1, "class": "ghost" }, g);
      }
      if (targets.indexOf(p) >= 0) {
        var tc = centre(p, Math.min(n, STACK - 1));
        el("circle", { cx: tc[0], cy: tc[1], r: 2, "class": "dot" + (hitTargets.indexOf(p) >= 0 ? " hit" : "") }, g);
      }
      el("text", { x: x + U / 2, y: top ? TOP - 1.4 : BOTTOM + LBL - 1.4, "class": "num" }, svg).textContent = String(p);
    }
    drawBar(svg, scene, colours, targets, sources);
    [true, false].forEach(function (mine) {
      var b = trayBox(mine), n = (scene.off || [0, 0])[mine ? 0 : 1] || 0, colour = colours[mine ? 0 : 1];
      var g = el("g", mine ? { "class": "tray" + (targets.indexOf("off") >= 0 ? " target" : ""), "data-point": "off",
        tabindex: scene.focusPoint === "off" ? "0" : "-1", role: "button", "aria-label": scene.trayLabel ? scene.trayLabel(n) : "off" } : { "class": "tray" }, svg);
      el("rect", { x: b[0], y: b[1], width: b[2], height: b[3], "class": "traybg" }, g);
      var h = (b[3] - 2) / CHECKERS;
      for (var i = 0; i < n; i++) {
        var y = mine ? b[1] + b[3] - 1 - (i + 1) * h : b[1] + 1 + i * h;
        el("rect", { x: b[0] + 1.5, y: y + 0.15, width: b[2] - 3, height: h - 0.3, rx: 0.6, "class": "ck ck" + colour }, g);
      }
      // the count at the tray's outer end, in the row of point numbers (the trays meet in the middle)
      if (n) el("text", { x: b[0] + b[2] / 2, y: mine ? BOTTOM + LBL - 1.4 : TOP - 1.4, "class": "num offcount " + (mine ? "mine" : "theirs") }, svg).textContent = String(n);
    });
    if (scene.dice && scene.dice.length === 2) {
      var d = scene.dice, faces = d[0] === d[1] ? [d[0], d[0], d[0], d[0]] : d.slice(), spent = faces.map(function () { return false; });
      (scene.usedDice || []).forEach(function (v) {
        var i = faces.indexOf(v);
        while (i >= 0 && spent[i]) i = faces.indexOf(v, i + 1);
        if (i < 0) i = spent.indexOf(false);
        if (i >= 0) spent[i] = true;
      });
      var cx = (scene.diceMine ? RIGHT : LEFT) + 3 * U, y0 = MID - 4.5, x0 = cx - (faces.length * 10 - 1) / 2;
      faces.forEach(function (v, i) { dieFace(svg, x0 + i * 10, y0, v, spent[i]); });
    }
    drawArrows(svg, scene.arrows || []);
    if (focused) {
      var again = svg.querySelector('[data-point="' + focused + '"]');
      if (again) again.focus();
    }
  }

  FV.board = { draw: draw, hit: hit, centre: centre, barCentre: barCentre, pointX: pointX, W: W, H: H };
})(window.FV = window.FV || {});
