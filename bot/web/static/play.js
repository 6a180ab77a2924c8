/* Playing in the Mini App: the player taps or drags a checker, the legal destinations come from the
   engine's step options (POST steps), undo takes a step back, confirm sends the play as the same text
   the chat uses (POST play) and shows the same errors. Active only on the viewer's own turn, live. */
(function (FV) {
  "use strict";
  var OFF = 25;
  function $(id) { return document.getElementById(id); }

  function Play(app) {
    this.app = app;
    this.version = null;
    this.pending = [];  // [[from, to]] in the player's numbering, from = 0 for the bar, to = 25 for off
    this.hits = [];  // per pending step: did it hit (Portes) or pin (Plakoto), as the engine says
    this.dice = [];  // the die each pending step used (null if unknown)
    this.options = [];
    this.complete = false;
    this.text = "";
    this.selected = null;
    this.busy = false;
    this.error = "";
    this.drag = null;
    this.suppressClick = false;
  }

  Play.prototype.active = function () {
    var st = this.app.state;
    return !!(this.app.authed && st && st.viewer && st.viewer.to_move && !st.over && st.dice && this.app.index === null);
  };

  /* A new state: start over from the steps already built in the chat (if any) and ask for the options. */
  Play.prototype.sync = function (st) {
    if (st.version === this.version) return;
    this.version = st.version;
    this.pending = (st.pending || []).map(function (s) { return [s[0], s[1]]; });
    this.dice = this.pending.map(function (s) { return s[1] <= 24 ? s[1] - s[0] : null; });
    this.hits = this.pending.map(function () { return false; });
    this.selected = null;
    this.error = "";
    this.options = [];
    this.complete = false;
    this.text = "";
    if (this.active()) this.ask();
  };

  /* Ask the engine (POST steps) what can follow the pending steps; only the newest answer counts, and a
     lost connection is retried. */
  Play.prototype.ask = function () {
    var self = this, seq = this.seq = (this.seq || 0) + 1;
    this.busy = true;
    this.app.client.steps(this.version, this.pending).then(function (r) {
      if (seq !== self.seq) return;
      self.busy = false;
      if (r.status === 200 && r.body && Array.isArray(r.body.options)) {
        self.options = r.body.options;
        self.complete = !!r.body.complete;
        self.text = typeof r.body.text === "string" ? r.body.text : "";
        if (Array.isArray(r.body.hits) && r.body.hits.length === self.pending.length) self.hits = r.body.hits.slice();
      } else {
        self.fail(r);
        if (r.status === 0) setTimeout(function () { if (seq === self.seq && self.active()) self.ask(); }, 2000);
      }
      self.app.render();
    });
  };

  Play.prototype.fail = function (r) {
    this.error = (r.body && (r.body.error || r.body.code)) || this.app.S("webpage_net_error");
    if (r.status === 409) this.app.refresh();
  };

  function dest(to) { return to === "off" || to === OFF ? "off" : to; }
  Play.prototype.sources = function () {
    var out = [];
    if (this.busy) return out;
    this.options.forEach(function (o) { if (out.indexOf(o.from) < 0) out.push(o.from); });
    return out;
  };
  Play.prototype.targets = function (from) {
    return this.options.filter(function (o) { return o.from === from; }).map(function (o) { return dest(o.to); });
  };

  /* The board with the pending steps applied (entering from the bar, hits sending a checker to the bar in
     Portes, pins in Plakoto), movable checkers and legal destinations marked. */
  Play.prototype.decorate = function (sc) {
    var pts = sc.points.slice(), off = sc.off.slice(), bar = (sc.bar || [0, 0]).slice(), hits = this.hits;
    var pins = (sc.pins || []).slice(), plakoto = this.app.state && this.app.state.kind === "plakoto";
    this.pending.forEach(function (s, i) {
      if (s[0] === 0) bar[0] -= 1;
      else {
        pts[s[0] - 1] -= 1;
        if (plakoto && pts[s[0] - 1] === 0 && pins[s[0] - 1] < 0) { pts[s[0] - 1] = -1; pins[s[0] - 1] = 0; }  // released
      }
      if (s[1] < 1 || s[1] > 24) { off[0] += 1; return; }
      if (hits[i] && pts[s[1] - 1] === -1) {
        pts[s[1] - 1] = 0;
        if (plakoto) pins[s[1] - 1] = -1; else bar[1] += 1;
      }
      pts[s[1] - 1] += 1;
    });
    sc.points = pts;
    sc.off = off;
    sc.bar = bar;
    sc.pins = pins;
    sc.sources = this.sources();
    sc.selected = this.selected;
    sc.targets = this.selected === null ? [] : this.targets(this.selected);
    var picked = this.selected;  // the destinations where this checker would hit (Portes) or pin (Plakoto)
    sc.hitTargets = picked === null ? [] : this.options.filter(function (o) { return o.from === picked && o.hit; })
      .map(function (o) { return dest(o.to); });
    sc.usedDice = this.dice.slice();
    if (this.pending.length) {
      sc.marks = { from: this.pending.map(function (s) { return s[0]; }),
        to: this.pending.filter(function (s) { return s[1] <= 24; }).map(function (s) { return s[1]; }) };
      sc.arrows = this.pending.map(function (s, i) { return { from: s[0], to: s[1] > 24 ? "off" : s[1], hit: !!hits[i], mine: true }; });
    }
    return sc;
  };

  /* A tap (or Enter/Space) on point p ("off" for the tray, null to drop the selection). */
  Play.prototype.choose = function (p) {
    if (!this.active() || this.busy) return;
    if (this.selected !== null && p !== null && this.targets(this.selected).indexOf(p) >= 0) {
      this.add(this.selected, p);
      return;
    }
    this.selected = p !== null && p !== this.selected && this.sources().indexOf(p) >= 0 ? p : null;
    this.error = "";
    this.app.render();
  };

  Play.prototype.add = function (from, to) {
    var die = null;
    this.options.forEach(function (o) { if (o.from === from && dest(o.to) === to && die === null) die = o.die; });
    var hit = false;
    this.options.forEach(function (o) { if (o.from === from && dest(o.to) === to && o.hit) hit = true; });
    this.pending.push([from, to === "off" ? OFF : to]);
    this.dice.push(die);
    this.hits.push(hit);
    this.selected = null;
    this.error = "";
    this.ask();
    this.app.render();
  };

  Play.prototype.undo = function () {
    if (!this.active() || this.busy || !this.pending.length) return;
    this.pending.pop();
    this.dice.pop();
    this.hits.pop();
    this.selected = null;
    this.error = "";
    this.ask();
    this.app.render();
  };

  Play.prototype.confirm = function () {
    var self = this, app = this.app;
    if (!this.active() || this.busy || !this.complete) return;
    this.busy = true;
    app.render();
    app.client.play(this.version, this.text).then(function (r) {
      self.busy = false;
      if (r.body && r.body.ok && r.body.state) { app.accept(r.body.state, false); return; }
      self.fail(r);
      app.render();
    });
  };

  /* The bar under the board: what to do next, the last error, undo and confirm. */
  Play.prototype.panel = function () {
    var on = this.active(), S = this.app.S;
    $("playbar").hidden = !on;
    if (!on) return;
    var hint = this.busy ? "…" : this.complete ? S("webpage_hint_confirm", { play: this.text || S("webpage_pass") })
      : this.selected !== null ? S("webpage_hint_target") : S("webpage_hint_source");
    FV.setText($("hint"), hint);
    FV.setText($("error"), this.error);
    $("undo").disabled = this.busy || !this.pending.length;
    $("confirm").disabled = this.busy || !this.complete;
  };

  function svgPoint(svg, e) {
    var m = svg.getScreenCTM();
    if (!m) return null;
    var pt = svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    var q = pt.matrixTransform(m.inverse());
    return FV.board.hit(q.x, q.y);
  }

  /* Taps and drags on the board; a drag that ends on a legal destination plays that step. */
  Play.prototype.attach = function (svg) {
    var self = this;
    svg.addEventListener("pointerdown", function (e) {
      if (!self.active() || self.busy) return;
      var p = svgPoint(svg, e);
      if (p === null || self.sources().indexOf(p) < 0) return;
      self.drag = { from: p, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
    });
    svg.addEventListener("pointermove", function (e) {
      var d = self.drag;
      if (!d || d.id !== e.pointerId) return;
      if (!d.moved && Math.abs(e.clientX - d.x) + Math.abs(e.clientY - d.y) > 8) {
        d.moved = true;
        self.selected = d.from;
        // captured only once it is a drag: a captured tap's click would target the whole board
        try { svg.setPointerCapture(e.pointerId); } catch (err) { /* capture is a nicety */ }
        self.app.render();
      }
      if (d.moved) {
        var m = svg.getScreenCTM(), pt = svg.createSVGPoint();
        pt.x = e.clientX; pt.y = e.clientY;
        var q = pt.matrixTransform(m.inverse()), ghost = svg.querySelector(".floating");
        if (!ghost) {
          ghost = document.createElementNS("http://www.w3.org/2000/svg", "circle");
          ghost.setAttribute("r", "4.5");
          ghost.setAttribute("class", "floating ck ck" + self.app.side());
          svg.appendChild(ghost);
        }
        ghost.setAttribute("cx", q.x);
        ghost.setAttribute("cy", q.y);
      }
    });
    function end(e) {
      var d = self.drag;
      if (!d || d.id !== e.pointerId) return;
      self.drag = null;
      if (!d.moved) return;
      self.suppressClick = true;
      setTimeout(function () { self.suppressClick = false; }, 0);
      var p = e.type === "pointerup" ? svgPoint(svg, e) : null;
      if (p !== null && self.targets(d.from).indexOf(p) >= 0) self.add(d.from, p);
      else self.app.render();
    }
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("click", function (e) {
      if (self.suppressClick) return;
      var t = e.target.closest ? e.target.closest("[data-point]") : null;
      if (!t) { self.choose(svgPoint(svg, e)); return; }
      var p = t.getAttribute("data-point");
      self.choose(p === "off" ? "off" : parseInt(p, 10));
    });
    $("undo").addEventListener("click", function () { self.undo(); });
    $("confirm").addEventListener("click", function () { self.confirm(); });
  };

  FV.play = { create: function (app) { return new Play(app); } };
})(window.FV = window.FV || {});
