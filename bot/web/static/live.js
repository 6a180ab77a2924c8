/* Talking to the server: who is looking (the game's token, Telegram's initData read from the URL hash
   the way Telegram passes it, or from window.Telegram.WebApp when its script is present), the JSON API,
   and the live stream (Server-Sent Events) that reconnects by itself and catches up by version. */
(function (FV) {
  "use strict";

  /* Parameters Telegram puts in the URL hash (#tgWebAppData=...&tgWebAppStartParam=...), or the query. */
  function launchParams() {
    var raw = location.hash.replace(/^#/, "");
    var params = new URLSearchParams(raw.indexOf("tgWebApp") >= 0 ? raw : location.search.replace(/^\?/, ""));
    return params;
  }

  /* The Mini App's signed initData ("" outside Telegram). */
  function initData() {
    var tg = window.Telegram && window.Telegram.WebApp;
    if (tg && typeof tg.initData === "string" && tg.initData) return tg.initData;
    return launchParams().get("tgWebAppData") || "";
  }

  /* The game's token: /g/<token>, or in the Mini App (/app) Telegram's start_param. */
  function token(data) {
    var m = location.pathname.match(/\/g\/([^\/?#]+)\/?$/);
    if (m) return decodeURIComponent(m[1]);
    var tg = window.Telegram && window.Telegram.WebApp;
    var unsafe = tg && tg.initDataUnsafe;
    if (unsafe && unsafe.start_param) return String(unsafe.start_param);
    if (data) {
      var sp = new URLSearchParams(data).get("start_param");
      if (sp) return sp;
    }
    return launchParams().get("tgWebAppStartParam") || new URLSearchParams(location.search).get("startapp") || "";
  }

  function Client(tok, data) {
    this.token = tok;
    this.initData = data;
    this.base = "/api/g/" + encodeURIComponent(tok);
    this.source = null;
    this.retry = 1000;
    this.closed = false;
  }

  /* One API call: resolves to {status, body} (body null when the answer is not JSON); never rejects. */
  Client.prototype.call = function (path, body) {
    var headers = { Accept: "application/json" };
    if (this.initData) headers["X-Init-Data"] = this.initData;
    var opts = { method: body === undefined ? "GET" : "POST", headers: headers, cache: "no-store" };
    if (body !== undefined) { headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch(this.base + path, opts).then(function (r) {
      return r.text().then(function (t) {
        var parsed = null;
        try { parsed = t ? JSON.parse(t) : null; } catch (e) { parsed = null; }
        return { status: r.status, body: parsed };
      });
    }, function () { return { status: 0, body: null }; });
  };
  Client.prototype.state = function () { return this.call("/state"); };
  /* The page's strings alone ({lang, strings}), in the browser's language: for a page with no game. */
  Client.prototype.strings = function () {
    return fetch("/api/strings", { headers: { Accept: "application/json" } }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(null, function () { return null; });
  };
  Client.prototype.steps = function (version, pending) { return this.call("/steps", { version: version, pending: pending }); };
  Client.prototype.play = function (version, text) { return this.call("/play", { version: version, text: text }); };

  /* Follow the game live: onState(state) for every new version, onStatus("live"|"lost"). EventSource
     resends Last-Event-ID itself on a dropped connection; if the server refuses the stream (the browser
     then gives up), we fetch the state (catching up) and open a new stream, backing off up to 15 s. */
  Client.prototype.follow = function (onState, onStatus, since) {
    var self = this;
    self.since = since;
    if (!window.EventSource) return;
    function open() {
      if (self.closed) return;
      // ?since: the version we already have, so the stream does not send it again
      var es = new EventSource(self.base + "/events" + (typeof self.since === "number" ? "?since=" + self.since : ""));
      self.source = es;
      es.addEventListener("open", function () { self.retry = 1000; onStatus("live"); });
      es.addEventListener("state", function (ev) {
        var st = null;
        try { st = JSON.parse(ev.data); } catch (e) { return; }
        if (st && typeof st.version === "number") { self.since = Math.max(self.since || 0, st.version); onState(st, true); }
      });
      // the server closes a stream nothing happened on for long: wait for the user before reconnecting
      es.addEventListener("idle", function () {
        es.close();
        if (self.source === es) self.source = null;
        onStatus("idle");
        var events = ["pointerdown", "keydown", "focus", "visibilitychange"];
        function resume() {
          if (document.visibilityState === "hidden") return;
          events.forEach(function (n) { window.removeEventListener(n, resume, true); });
          self.state().then(function (r) {
            if (r.status === 200 && r.body) { self.since = r.body.version; onState(r.body, false); }
            open();
          });
        }
        events.forEach(function (n) { window.addEventListener(n, resume, true); });
      });
      es.addEventListener("error", function () {
        if (es.readyState === 2 && self.source !== es) return;  // closed by us (idle)
        onStatus("lost");
        if (es.readyState === 2) {
          es.close();
          if (self.source === es) self.source = null;
          setTimeout(function () {
            self.state().then(function (r) {
              if (r.status === 200 && r.body) { self.since = r.body.version; onState(r.body, false); }
              open();
            });
          }, self.retry);
          self.retry = Math.min(self.retry * 2, 15000);
        }
      });
    }
    open();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        self.state().then(function (r) { if (r.status === 200 && r.body) onState(r.body, false); });
      }
    });
  };

  /* Telegram's theme colours (#tgWebAppThemeParams={"bg_color": ...}) as the page's colours. */
  function theme() {
    var raw = launchParams().get("tgWebAppThemeParams"), t = null;
    try { t = raw ? JSON.parse(raw) : null; } catch (e) { t = null; }
    if (!t || typeof t !== "object") return;
    function ok(c) { return typeof c === "string" && /^#[0-9a-fA-F]{6}$/.test(c) ? c : null; }
    if (!ok(t.bg_color) || !ok(t.text_color)) return;  // a half theme would leave text unreadable
    var map = { "--bg": t.bg_color, "--fg": t.text_color, "--dim": ok(t.hint_color) || t.text_color,
      "--card": ok(t.secondary_bg_color) || t.bg_color };
    for (var k in map) document.documentElement.style.setProperty(k, map[k]);
  }

  /* Tell the Telegram app something (its web events: core.telegram.org/api/web-events) without its script:
     the mobile and desktop apps' TelegramWebviewProxy, window.external.notify, or the web client's frame. */
  function tgEvent(type, data) {
    var tg = window.Telegram && window.Telegram.WebApp;
    try {
      if (tg) {
        if (type === "web_app_ready" && tg.ready) tg.ready();
        if (type === "web_app_expand" && tg.expand) tg.expand();
      } else if (window.TelegramWebviewProxy && window.TelegramWebviewProxy.postEvent) {
        window.TelegramWebviewProxy.postEvent(type, data === undefined ? "" : JSON.stringify(data));
      } else if (window.external && "notify" in window.external) {
        window.external.notify(JSON.stringify({ eventType: type, eventData: data }));
      } else if (window.parent && window.parent !== window) {
        window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "https://web.telegram.org");
      }
    } catch (e) { /* not inside Telegram after all */ }
  }

  FV.net = { initData: initData, token: token, theme: theme, tgEvent: tgEvent, Client: Client };
})(window.FV = window.FV || {});
