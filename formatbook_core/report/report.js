// formatbook report: sort a table by a click on its header; a click on a listed repair or
// violation lights its marks on the reply. Nothing is fetched.
(function () {
  "use strict";
  document.querySelectorAll("table.sortable th").forEach(function (th, index) {
    th.addEventListener("click", function () {
      var table = th.closest("table");
      var column = Array.prototype.indexOf.call(th.parentNode.children, th);
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var down = th.getAttribute("data-down") !== "1";
      th.setAttribute("data-down", down ? "1" : "0");
      rows.sort(function (a, b) {
        var x = a.cells[column].textContent, y = b.cells[column].textContent;
        var nx = parseFloat(x), ny = parseFloat(y);
        var c = !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
        return down ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  document.addEventListener("click", function (event) {
    var item = event.target.closest ? event.target.closest("ol.legend li") : null;
    if (!item) { return; }
    var card = item.closest("details, .card, section, body");
    var number = item.getAttribute("data-m");
    card.querySelectorAll("[data-m]").forEach(function (el) {
      var on = (" " + el.getAttribute("data-m") + " ").indexOf(" " + number + " ") >= 0;
      el.classList.toggle("lit", on && !el.classList.contains("lit"));
    });
  });
  document.documentElement.setAttribute("data-ready", "1");
})();
