/* Score sheets on paper: a Print button, and every folded detail (payments, how a score was
   made) opened for printing so the sheet is complete. Without JS the browser's own print
   still works, with the details folded. */
(function () {
  "use strict";
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  });
  document.addEventListener("click", function (e) {
    if (e.target.closest("[data-print]")) window.print();
  });

  // Everyone at the table keeps this page open: when another phone records or corrects a
  // hand, show it. The page is fetched again while it is on screen (and at once when it comes
  // back into view); the sheet is replaced only when it changed, so nothing flickers.
  var live = document.getElementById("live");
  if (!live || !window.fetch || !window.DOMParser) return;
  var busy = false;
  function refresh() {
    if (busy || document.visibilityState !== "visible") return;
    busy = true;
    fetch(window.location.pathname, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (fresh && fresh.innerHTML !== live.innerHTML) live.innerHTML = fresh.innerHTML;
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ })
      .then(function () { busy = false; });
  }
  var seconds = parseInt(live.getAttribute("data-live-seconds"), 10) || 20;
  window.setInterval(refresh, seconds * 1000);
  document.addEventListener("visibilitychange", refresh);
  // Hands this phone kept without signal have just been saved (static/js/record-queue.js).
  document.addEventListener("mahjong:hands-saved", refresh);
  window.addEventListener("focus", refresh);
})();
