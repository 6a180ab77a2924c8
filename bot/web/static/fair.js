/* Fair dice check in the browser: sha256(seed) must equal the commitment published at the start, and
   roll k must be derived from HMAC-SHA256(seed, k as 8 bytes big-endian) by rejection sampling (bytes of
   252 or more skipped, else byte % 6 + 1), as fevga/dice.py does. WebCrypto when the page is on a secure
   context (https, localhost); on plain http our own small SHA-256/HMAC below. */
(function (FV) {
  "use strict";
  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];

  /* SHA-256 of a Uint8Array, as a Uint8Array of 32 bytes (FIPS 180-4, written from the standard). */
  function sha256(data) {
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var n = data.length, total = ((n + 9 + 63) >> 6) << 6, buf = new Uint8Array(total), w = new Int32Array(64);
    buf.set(data); buf[n] = 0x80;
    var bits = n * 8;
    buf[total - 4] = (bits >>> 24) & 255; buf[total - 3] = (bits >>> 16) & 255;
    buf[total - 2] = (bits >>> 8) & 255; buf[total - 1] = bits & 255;
    buf[total - 5] = Math.floor(n / 0x20000000) & 255;
    for (var off = 0; off < total; off += 64) {
      for (var i = 0; i < 16; i++) {
        var j = off + i * 4;
        w[i] = (buf[j] << 24) | (buf[j + 1] << 16) | (buf[j + 2] << 8) | buf[j + 3];
      }
      for (i = 16; i < 64; i++) {
        var a = w[i - 15], b = w[i - 2];
        var s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        var s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
      }
      var A = h[0], B = h[1], C = h[2], D = h[3], E = h[4], F = h[5], G = h[6], H = h[7];
      for (i = 0; i < 64; i++) {
        var S1 = ((E >>> 6) | (E << 26)) ^ ((E >>> 11) | (E << 21)) ^ ((E >>> 25) | (E << 7));
        var t1 = (H + S1 + ((E & F) ^ (~E & G)) + K[i] + w[i]) | 0;
        var S0 = ((A >>> 2) | (A << 30)) ^ ((A >>> 13) | (A << 19)) ^ ((A >>> 22) | (A << 10));
        var t2 = (S0 + ((A & B) ^ (A & C) ^ (B & C))) | 0;
        H = G; G = F; F = E; E = (D + t1) | 0; D = C; C = B; B = A; A = (t1 + t2) | 0;
      }
      h[0] = (h[0] + A) | 0; h[1] = (h[1] + B) | 0; h[2] = (h[2] + C) | 0; h[3] = (h[3] + D) | 0;
      h[4] = (h[4] + E) | 0; h[5] = (h[5] + F) | 0; h[6] = (h[6] + G) | 0; h[7] = (h[7] + H) | 0;
    }
    var out = new Uint8Array(32);
    for (i = 0; i < 8; i++) {
      out[i * 4] = h[i] >>> 24; out[i * 4 + 1] = (h[i] >>> 16) & 255;
      out[i * 4 + 2] = (h[i] >>> 8) & 255; out[i * 4 + 3] = h[i] & 255;
    }
    return out;
  }

  function concat(a, b) { var c = new Uint8Array(a.length + b.length); c.set(a); c.set(b, a.length); return c; }

  /* HMAC-SHA256 (RFC 2104) on our own sha256. */
  function hmac(key, msg) {
    if (key.length > 64) key = sha256(key);
    var ipad = new Uint8Array(64), opad = new Uint8Array(64);
    for (var i = 0; i < 64; i++) { var k = i < key.length ? key[i] : 0; ipad[i] = k ^ 0x36; opad[i] = k ^ 0x5c; }
    return sha256(concat(opad, sha256(concat(ipad, msg))));
  }

  function subtle() {
    var c = window.crypto;
    return window.isSecureContext && c && c.subtle ? c.subtle : null;
  }

  /* Promise of sha256 and of an HMAC function keyed by `key`, WebCrypto when available. */
  function digest(data) {
    var s = subtle();
    if (!s) return Promise.resolve(sha256(data));
    return s.digest("SHA-256", data).then(function (b) { return new Uint8Array(b); });
  }
  function hmacWith(key) {
    var s = subtle();
    if (!s) return Promise.resolve(function (m) { return Promise.resolve(hmac(key, m)); });
    return s.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]).then(function (ck) {
      return function (m) { return s.sign("HMAC", ck, m).then(function (b) { return new Uint8Array(b); }); };
    });
  }

  function hexToBytes(hex) {
    if (typeof hex !== "string" || hex.length % 2 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }
  function bytesToHex(b) {
    var s = "";
    for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? "0" : "") + b[i].toString(16);
    return s;
  }
  function message(k, block) {
    var m = new Uint8Array(block ? 12 : 8), v = k;
    for (var i = 7; i >= 0; i--) { m[i] = v % 256; v = Math.floor(v / 256); }
    if (block) { m[8] = (block >>> 24) & 255; m[9] = (block >>> 16) & 255; m[10] = (block >>> 8) & 255; m[11] = block & 255; }
    return m;
  }

  /* Roll k of the seed (a promise of [a, b]), given a keyed HMAC function. */
  function roll(mac, k) {
    var out = [];
    function next(block) {
      return mac(message(k, block)).then(function (d) {
        for (var i = 0; i < d.length && out.length < 2; i++) if (d[i] < 252) out.push(d[i] % 6 + 1);
        return out.length < 2 ? next(block + 1) : out;
      });
    }
    return next(0);
  }

  /* Check a finished game's dice: resolves to {ok, commitment_ok, bad: index of the first wrong roll or -1}. */
  function verify(seedHex, commitment, rolls) {
    var seed = hexToBytes(seedHex);
    if (!seed || !seed.length) return Promise.resolve({ ok: false, commitment_ok: false, bad: -1 });
    return digest(seed).then(function (d) {
      var cok = bytesToHex(d) === String(commitment || "").toLowerCase();
      return hmacWith(seed).then(function (mac) {
        var list = rolls || [], k = 0;
        function step() {
          if (k >= list.length) return { ok: cok, commitment_ok: cok, bad: -1 };
          return roll(mac, k).then(function (r) {
            var want = list[k] || [];
            if (r[0] !== want[0] || r[1] !== want[1]) return { ok: false, commitment_ok: cok, bad: k };
            k += 1;
            return step();
          });
        }
        return step();
      });
    });
  }

  FV.fair = { sha256: sha256, hmac: hmac, verify: verify, hex: bytesToHex, bytes: hexToBytes, roll: roll, hmacWith: hmacWith };
})(window.FV = window.FV || {});
