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
})();
