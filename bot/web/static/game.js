/* The game page: loads the versioned state, draws it from the viewer's side, follows it live, lets the
   viewer replay it, and (in the Telegram Mini App, or for the terminal's player on his own machine, on his
   turn) hands the board to FV.play. */
(function (FV) {
  "use strict";
  function $(id) { return document.getElementById(id); }
  /* The other seat's number for point p: Fevga's players go the same way round from opposite corners,
     Portes/Plakoto's in opposite directions. */
  function tavli() { return !!(app.state && (app.state.kind === "portes" || app.state.kind === "plakoto")); }
  function opp(p) { return tavli() ? 25 - p : (p + 11) % 24 + 1; }
  /* Set a text only when it changed (live regions then announce real changes only). */
  function setText(e, text) { if (e.textContent !== text) e.textContent = text; }
  FV.setText = setText;

  var app = { state: null, seat: null, auth: "", authed: false, local: false, index: null, client: null, play: null, verified: "" };
  FV.app = app;

  /* A UI string of the viewer's language with {name} fields filled in (the key itself if missing). */
  app.S = function (key, args) {
    var strings = (app.state && app.state.strings) || {}, t = strings[key];
    if (typeof t !== "string") return key;
    return t.replace(/\{(\w+)\}/g, function (m, k) { return args && args[k] !== undefined && args[k] !== null ? String(args[k]) : "?"; });
  };

  /* The viewer's side: his seat, else seat 0 for spectators. */
  function side() { return app.seat === 1 ? 1 : 0; }

  /* Seat 0's signed counts turned to the viewer's numbering (positive = the viewer's side). */
  function viewPoints(points0) {
    var v = side(), out = [];
    for (var p = 1; p <= 24; p++) out.push(v === 0 ? points0[p - 1] || 0 : -(points0[opp(p) - 1] || 0));
    return out;
  }
  /* Seat 0's pins (+1 a checker of seat 0's pinned) turned to the viewer's numbering and side. */
  function viewPins(pins0) {
    var v = side(), out = [];
    for (var p = 1; p <= 24; p++) out.push(v === 0 ? (pins0 || [])[p - 1] || 0 : -((pins0 || [])[opp(p) - 1] || 0));
    return out;
  }
  /* [the viewer's bar, the opponent's] from seat 0's [bar0, bar1]. */
  function viewBar(bar0) { var b = bar0 || [0, 0], v = side(); return [b[v] || 0, b[1 - v] || 0]; }
  /* Steps of `seat` (in his numbering) as the viewer's points moved from and to. */
  function viewMarks(steps, seat) {
    var marks = { from: [], to: [] }, mine = seat === side();
    (steps || []).forEach(function (s) {
      var a = Array.isArray(s) ? s[0] : s && s.from, b = Array.isArray(s) ? s[1] : s && s.to;
      if (typeof a === "number" && a >= 1 && a <= 24) marks.from.push(mine ? a : opp(a));
      if (typeof b === "number" && b >= 1 && b <= 24) marks.to.push(mine ? b : opp(b));
    });
    return marks;
  }
  /* Steps of `seat` as arrows in the viewer's numbering (0 = that seat's bar, "off" = its tray), each with
     whether it hit or pinned. */
  function viewArrows(steps, hits, seat) {
    var mine = seat === side(), out = [];
    (steps || []).forEach(function (s, i) {
      var a = s[0], b = s[1];
      if (typeof a !== "number" || (typeof b !== "number" && b !== "off")) return;
      out.push({ from: a === 0 ? 0 : mine ? a : opp(a), to: b === "off" || b >= 25 ? "off" : mine ? b : opp(b),
        hit: !!(hits || [])[i], mine: mine });
    });
    return out;
  }
  app.viewPoints = viewPoints;
  app.side = side;

  /* The name of the viewer's side (whose 0) or the opponent's (whose 1). */
  function nameOf(whose) {
    var seat = whose === 0 ? side() : 1 - side();
    return ((app.state.seats || [])[seat] || {}).name || "?";
  }
  function pointLabel(p, n, whose, pin) {
    if (!n) return app.S("webpage_point_empty", { point: p });
    if (pin) return app.S("webpage_point_pinned", { point: p, count: n, player: nameOf(whose), pinned: nameOf(pin > 0 ? 0 : 1) });
    return app.S("webpage_point", { point: p, count: n, player: nameOf(whose) });
  }

  /* The scene of the board at the replay index (null = now). */
  function scene() {
    var st = app.state, v = side(), moves = st.moves || [], i = app.index, sc;
    if (i === null) {
      var seats = st.seats || [{}, {}];
      sc = { points: viewPoints(st.points || []), off: [seats[v].off || 0, seats[1 - v].off || 0],
        dice: st.dice, diceMine: st.turn === v, pins: viewPins(st.pins), bar: viewBar(st.bar),
        marks: st.last_play ? viewMarks(st.last_play.steps, st.last_play.seat) : null,
        arrows: st.last_play ? viewArrows(st.last_play.steps, st.last_play.hits, st.last_play.seat) : [] };
    } else if (i === 0) {
      sc = { points: viewPoints(st.start_points || []), off: [0, 0], dice: null, marks: null };
    } else {
      var mv = moves[i - 1], off = mv.off || [0, 0];
      sc = { points: viewPoints(mv.points || []), off: [off[v] || 0, off[1 - v] || 0], dice: mv.dice,
        diceMine: mv.seat === v, marks: viewMarks(mv.steps, mv.seat), pins: viewPins(mv.pins), bar: viewBar(mv.bar),
        arrows: viewArrows(mv.steps, mv.hits, mv.seat) };
    }
    if (st.kind === "plakoto") sc.mothers = [1, 24];  // each player's starting point, in the viewer's numbering
    sc.barLabel = function (n) { return app.S("webpage_bar", { count: n, player: nameOf(0) }); };
    sc.colours = [v, 1 - v];
    sc.label = pointLabel;
    sc.trayLabel = function (n) { return app.S("webpage_tray", { count: n }); };
    return sc;
  }

  function statusText() {
    var st = app.state, S = app.S, seats = st.seats || [{}, {}], r = st.result;
    if (st.over) {
      if (r && r.kind === "draw") return S("webpage_won_draw");
      if (!r || r.kind === "aborted" || r.winner === null || r.winner === undefined) return S("webpage_aborted");
      var key = "webpage_won_" + (r.kind || "single");
      if (!(st.strings || {})[key]) key = "webpage_won_single";
      return S(key, { player: (seats[r.winner] || {}).name, points: r.points });
    }
    var text = st.viewer && st.viewer.to_move ? S("webpage_your_turn") :
      S("webpage_to_move", { player: (seats[st.turn] || {}).name || "?" });
    if (typeof st.deadline === "number" && st.deadline > 0) {
      var at = new Date(st.deadline * 1000), opts = { hour: "2-digit", minute: "2-digit" };
      if (st.deadline * 1000 - Date.now() > 20 * 3600 * 1000) { opts.weekday = "short"; }
      text += " · " + S("webpage_deadline", { time: at.toLocaleTimeString(st.lang === "el" ? "el-GR" : "en-GB", opts) });
    }
    return text;
  }

  /* The match line in the board's words (as the terminal prints it after the game's name, which the heading
     shows): which game of a tavli match or of a longer match, and the score, the viewer's first. */
  function matchText() {
    var st = app.state, m = st.match, S = app.S, parts = [], v = side();
    if (!m) return "";
    var args = { n: m.game_no || "?", length: m.length };
    if (m.kind === "tavli") parts.push(S("board_tavli_game", args));
    else if (m.length > 1) parts.push(S("board_match_game", args));
    if (m.length > 1 && m.score) parts.push(m.score[v] + "–" + m.score[1 - v]);
    return parts.join(" · ");
  }

  /* The heading and tab title: the name of the game shown (Portes, Plakoto, Fevga), said once. */
  function titleText() {
    return app.S("webpage_game_" + (app.state.kind || "fevga"));
  }

  /* Why the board cannot be played here (empty when it can, or when the game is over). */
  function modeText(playing) {
    var st = app.state, S = app.S;
    if (playing) return "";
    if (app.auth) return S("web_" + app.auth);  // initData refused by the server: read-only, and why
    if (!app.authed) return S("webpage_read_only");
    if (app.seat === null) return S("web_not_a_player");
    if (st.viewer && st.viewer.to_move && app.index !== null) return S("webpage_replaying");
    return st.over ? "" : S("webpage_wait");
  }

  /* Draw everything from app.state. */
  app.render = function () {
    var st = app.state, S = app.S;
    if (!st) return;
    document.documentElement.lang = st.lang || "en";
    setText($("title"), titleText());
    if (document.title !== $("title").textContent) document.title = $("title").textContent;
    setText($("status"), statusText());
    setText($("match"), matchText());
    FV.panels.seatLine($("seat-top"), app, 1 - side());
    FV.panels.seatLine($("seat-bottom"), app, side());
    var sc = scene(), playing = app.play.active();
    if (playing) sc = app.play.decorate(sc);
    // one point in the Tab order (the last one focused, else a movable checker, else point 1)
    sc.focusPoint = app.focusPoint !== undefined && app.focusPoint !== null ? app.focusPoint : (sc.sources && sc.sources.length ? sc.sources[0] : 1);
    var svg = $("board");
    svg.classList.toggle("playing", playing);
    svg.setAttribute("aria-label", S(tavli() ? "webpage_board_tavli" : "webpage_board"));
    FV.board.draw(svg, sc);
    app.play.panel();
    FV.panels.moves(app);
    FV.panels.fair(app);
    FV.panels.analysis(app);
    setText($("mode"), modeText(playing));
    ["moves-h", "fair-h", "analysis-h", "commitment-l", "seed-l", "verify", "prev", "next", "tolive", "undo", "confirm", "slider-l"].forEach(function (id) {
      var e = $(id);
      if (e) e.textContent = S("webpage_" + id.replace("-", "_"));
    });
  };

  /* Take a state (from the API or the live stream) if it is newer than ours, or the same version with
     its analysis added. The stream is anonymous: the viewer's seat and strings are kept from our own fetch. */
  app.accept = function (st, fromStream) {
    var old = app.state;
    if (!st || typeof st.version !== "number") return;
    if (old && st.version < old.version) return;
    if (old && st.version === old.version && fromStream && JSON.stringify(st.analysis) === JSON.stringify(old.analysis)) return;
    // the terminal's page follows the seat to move (hot-seat: both players at one keyboard), which only
    // its own fetch knows: a newer version from the anonymous stream is fetched again as the page's own
    if (fromStream && app.local && old) { app.refresh(); return; }
    if (fromStream && app.authed && old) {
      st.viewer = { seat: app.seat, to_move: app.seat !== null && st.turn === app.seat && !st.over };
      st.strings = old.strings;
      st.lang = old.lang;
    }
    if (!st.strings && old) st.strings = old.strings;
    if (!fromStream) {
      app.seat = st.viewer && typeof st.viewer.seat === "number" ? st.viewer.seat : null;
      app.auth = typeof st.auth === "string" ? st.auth : "";
      app.local = st.local === true;
      if (app.local) app.authed = true;  // the terminal's player on his own machine: he plays here
    }
    app.state = st;
    if (app.index !== null && app.index > (st.moves || []).length) app.index = null;
    app.play.sync(st);
    app.render();
    // a finished game's analysis is made after its last version: look again for a while
    if (st.over && !st.analysis && !app.waiting && (app.looks = (app.looks || 0) + 1) <= 20) {
      app.waiting = setTimeout(function () { app.waiting = null; app.refresh(); }, 6000);
    }
  };

  app.refresh = function () {
    return app.client.state().then(function (r) {
      if (r.status === 200 && r.body) app.accept(r.body, false);
    });
  };

  /* Show the position after move i (0 = the start); the last one is the live board. */
  app.seek = function (i) {
    if (!app.state) return;
    var n = (app.state.moves || []).length;
    i = Math.max(0, Math.min(n, i));
    app.index = i === n ? null : i;
    if (app.index === null) app.movesFollow = true;  // back to the live board: the move list shows its end again
    app.render();
  };

  /* Arrow keys move the focus between points as they lie on the board (the tray at the bottom right). */
  function place(p) { return p === "off" ? [1, 12] : p <= 12 ? [0, 12 - p] : [1, p - 13]; }
  function pointAt(row, col) { return row === 0 ? 12 - Math.min(col, 11) : col >= 12 ? "off" : 13 + col; }
  function onKey(e) {
    var t = e.target.closest ? e.target.closest("[data-point]") : null;
    if (!t) return;
    var raw = t.getAttribute("data-point"), p = raw === "off" ? "off" : parseInt(raw, 10), rc = place(p), next = null;
    if (e.key === "ArrowLeft") next = pointAt(rc[0], Math.max(0, rc[1] - 1));
    else if (e.key === "ArrowRight") next = pointAt(rc[0], Math.min(rc[0] === 0 ? 11 : 12, rc[1] + 1));
    else if (e.key === "ArrowUp") next = pointAt(0, rc[1]);
    else if (e.key === "ArrowDown") next = pointAt(1, rc[1]);
    else if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") { e.preventDefault(); app.play.choose(p); return; }
    else if (e.key === "Escape") { app.play.choose(null); return; }
    if (next === null) return;
    e.preventDefault();
    var target = $("board").querySelector('[data-point="' + next + '"]');
    if (target) target.focus();
  }

  /* No game to show (a bad link, or /app opened outside Telegram): only the message, none of the board's
     controls, which could do nothing. */
  function failed(r) {
    var msg = r.body && (r.body.error || r.body.code);
    $("app").classList.add("nogame");
    $("status").textContent = msg || (r.status ? "HTTP " + r.status : "—");
    $("status").className = "bad";
  }

  /* /app without a game (opened outside Telegram): say so in the browser's language, ask nothing else. */
  function noGame(client) {
    $("app").classList.add("nogame");
    client.strings().then(function (r) {
      var strings = (r && r.strings) || {};
      if (r && r.lang) document.documentElement.lang = r.lang;
      failed({ status: 0, body: { error: strings.web_no_token || "—" } });
    });
  }

  function boot() {
    var data = FV.net.initData(), tok = FV.net.token(data);
    app.authed = !!data;
    if (data) FV.net.theme();
    app.client = new FV.net.Client(tok, data);
    if (!tok) { noGame(app.client); return; }
    app.play = FV.play.create(app);
    $("board").addEventListener("keydown", onKey);
    $("board").addEventListener("focusin", function (e) {
      var t = e.target.closest ? e.target.closest("[data-point]") : null, raw = t && t.getAttribute("data-point");
      if (!raw) return;
      app.focusPoint = raw === "off" ? "off" : parseInt(raw, 10);
      var all = $("board").querySelectorAll("[data-point]");
      for (var i = 0; i < all.length; i++) all[i].setAttribute("tabindex", all[i] === t ? "0" : "-1");
    });
    app.play.attach($("board"));
    $("slider").addEventListener("input", function () { app.seek(parseInt($("slider").value, 10)); });
    $("prev").addEventListener("click", function () { app.seek((app.index === null ? (app.state.moves || []).length : app.index) - 1); });
    $("next").addEventListener("click", function () { app.seek((app.index === null ? (app.state.moves || []).length : app.index) + 1); });
    $("tolive").addEventListener("click", function () { app.seek(Infinity); });
    $("verify").addEventListener("click", function () { FV.panels.verify(app); });
    app.client.state().then(function (r) {
      if (r.status !== 200 || !r.body) { failed(r); return; }
      app.accept(r.body, false);
      if (data) { FV.net.tgEvent("web_app_ready"); FV.net.tgEvent("web_app_expand"); }  // drawn: show it, tall
      var opened = 0;
      app.client.follow(app.accept, function (status) {
        setText($("conn"), app.S(status === "live" ? "webpage_conn_live" : status === "idle" ? "web_idle" : "webpage_conn_lost"));
        $("conn").className = status;
        if (status === "live" && opened++) app.refresh();  // back after a drop: catch up by version
      }, r.body.version);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})(window.FV = window.FV || {});
