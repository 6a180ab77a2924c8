/* The page around the board: the two players' lines, the move list with the replay slider, the fair-dice
   panel (commitment, revealed seed, verify in the browser) and the analysis once it exists. */
(function (FV) {
  "use strict";

  function $(id) { return document.getElementById(id); }
  function node(tag, cls, text, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function colourOf(seat) { return seat === 1 ? 1 : 0; }

  /* One player's line: colour, name, pips, borne off, and whether he is to move. */
  function seatLine(box, app, seat) {
    var st = app.state, S = app.S, info = (st.seats || [])[seat] || {};
    clear(box);
    box.classList.toggle("turn", st.turn === seat && !st.over);
    node("span", "swatch ck" + colourOf(seat), "", box);
    // "Alice (you)"; a name that already says it ("You", "Εσύ": the terminal's player) stands alone
    var mark = app.seat === seat && !info.named_you ? " " + S("webpage_you") : "";
    node("span", "name", (info.name || "?") + mark, box);
    node("span", "pips", S("webpage_pips", { pips: info.pips }), box);
    node("span", "off", S("webpage_off", { count: info.off || 0 }), box);
    var bar = (st.bar || [])[seat] || 0;  // Portes: checkers waiting to enter
    if (bar > 0) node("span", "bar", S("webpage_on_bar", { count: bar }), box);
  }

  function diceText(d) { return d && d.length === 2 ? d[0] + "-" + d[1] : ""; }

  /* Whether the move list shows its end: it follows the latest move then, and stays where its reader
     scrolled to while he reads earlier moves (until he scrolls back to the end). */
  function atEnd(list) { return list.scrollHeight - list.scrollTop - list.clientHeight <= 2; }
  function followMoves(app, list) {
    if (app.movesFollow !== undefined) return;
    app.movesFollow = true;
    list.addEventListener("scroll", function () { app.movesFollow = atEnd(list); }, { passive: true });
  }

  /* The move list (each entry jumps the replay there) and the slider's range and label. */
  function moves(app) {
    var kept = $("movelist").scrollTop;
    followMoves(app, $("movelist"));
    var st = app.state, S = app.S, list = clear($("movelist")), all = st.moves || [];
    var an = st.analysis, marks = an && typeof an.m === "string" ? an.m : "", losses = (an && an.l) || [];
    var at = app.index === null ? all.length : app.index;
    all.forEach(function (mv, i) {
      var li = node("li", i + 1 === at ? "current" : "", null, list);
      var b = node("button", "mv", null, li);
      b.type = "button";
      node("span", "swatch ck" + colourOf(mv.seat), "", b);
      node("span", "who", ((st.seats || [])[mv.seat] || {}).name || "?", b);
      node("span", "dice", diceText(mv.dice), b);
      node("span", "text", !mv.text || mv.text === "pass" ? S("webpage_pass") : mv.text, b);
      // the opponent's play is written in his numbering: the same play on the viewer's board (the labels)
      if (mv.seat !== app.side() && mv.here && mv.text !== "pass") node("span", "here", S("webpage_here", { steps: mv.here }), b);
      var mark = marks.charAt(i), loss = losses[i];
      if (mark === "b" || mark === "e") {
        node("span", "mark " + mark, (mark === "b" ? "??" : "?") + (loss ? " −" + (loss / 1000).toFixed(3) : ""), b);
      }
      b.addEventListener("click", function () { app.seek(i + 1); });
    });
    if (!all.length) node("li", "empty", S("webpage_no_moves"), list);
    var slider = $("slider");
    slider.max = String(all.length);
    slider.value = String(at);
    slider.setAttribute("aria-valuetext", at === all.length ? S("webpage_live") : S("webpage_replay_at", { n: at, total: all.length }));
    $("where").textContent = at === all.length ? S("webpage_live") : S("webpage_replay_at", { n: at, total: all.length });
    $("prev").disabled = at === 0;
    $("next").disabled = at === all.length;
    $("tolive").hidden = at === all.length;
    var cur = list.querySelector("li.current");
    if (cur && app.index !== null && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
    else if (app.index === null) list.scrollTop = app.movesFollow ? list.scrollHeight : kept;
  }

  /* The fair dice: the commitment from the start, the seed once the game is over, and a check of every roll. */
  function fair(app) {
    var st = app.state, S = app.S, f = st.fair || {}, box = $("fair");
    box.hidden = !f.commitment;
    if (!f.commitment) return;
    $("commitment").textContent = f.commitment;
    $("seed").textContent = f.seed || S("webpage_seed_hidden");
    var btn = $("verify");
    btn.hidden = !f.seed;
    if (app.verified !== f.seed + "|" + (f.rolls || []).length) $("verdict").textContent = "";
  }

  function verify(app) {
    var st = app.state, S = app.S, f = st.fair || {}, out = $("verdict"), rolls = f.rolls || [];
    out.textContent = S("webpage_verifying");
    out.className = "";
    FV.fair.verify(f.seed, f.commitment, rolls).then(function (r) {
      app.verified = f.seed + "|" + rolls.length;
      if (r.ok) { out.textContent = S("webpage_verify_ok", { count: rolls.length }); out.className = "good"; }
      else if (!r.commitment_ok) { out.textContent = S("webpage_verify_bad_commitment"); out.className = "bad"; }
      else { out.textContent = S("webpage_verify_bad_roll", { n: r.bad + 1 }); out.className = "bad"; }
    }, function () { out.textContent = S("webpage_verify_bad_commitment"); out.className = "bad"; });
  }

  /* The analysis of a finished game (Report.to_dict: per player error rate, errors, blunders, luck). */
  function analysis(app) {
    var st = app.state, S = app.S, an = st.analysis, box = $("analysis"), body = clear($("analysis-body"));
    box.hidden = !(an && an.p && an.p.length === 2);
    if (box.hidden) return;
    var table = node("table", null, null, body), head = node("tr", null, null, node("thead", null, null, table));
    ["", "webpage_an_rate", "webpage_an_errors", "webpage_an_blunders", "webpage_an_luck"].forEach(function (k) {
      node("th", null, k ? S(k) : "", head);
    });
    var tb = node("tbody", null, null, table);
    an.p.forEach(function (p, seat) {
      var tr = node("tr", null, null, tb);
      var th = node("th", null, null, tr);
      th.scope = "row";
      node("span", "swatch ck" + colourOf(seat), "", th);
      node("span", null, ((st.seats || [])[seat] || {}).name || "?", th);
      node("td", null, typeof p.r === "number" ? p.r.toFixed(1) : "", tr);
      node("td", null, String(p.e === undefined ? "" : p.e), tr);
      node("td", null, String(p.b === undefined ? "" : p.b), tr);
      node("td", null, typeof p.l === "number" ? (p.l >= 0 ? "+" : "−") + Math.abs(p.l / 1000).toFixed(2) : "", tr);
    });
    node("p", "note", S("webpage_an_note"), body);
  }

  FV.panels = { seatLine: seatLine, moves: moves, fair: fair, verify: verify, analysis: analysis, node: node, clear: clear };
})(window.FV = window.FV || {});
