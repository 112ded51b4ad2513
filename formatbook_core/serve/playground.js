// formatbook playground: talks to this server only (the page's CSP allows nothing else).
// Text from a reply is set with textContent; the marked reply and its list come from the
// server, built and escaped by formatbook_core.report.highlight.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) { throw new Error(data.error || ("HTTP " + response.status)); }
        return data;
      });
    });
  }

  function request() {
    return { reply: $("reply").value, expect: $("expect").value };
  }

  function rows(table, items) {
    var body = table.tBodies[0];
    body.textContent = "";
    items.forEach(function (cells) {
      var tr = document.createElement("tr");
      cells.forEach(function (cell) {
        var td = document.createElement("td");
        td.textContent = cell === null || cell === undefined ? "" : String(cell);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function fail(error) {
    $("error").textContent = error.message;
    $("verdict").textContent = "";
    $("verdict").setAttribute("data-verdict", "error");
    document.documentElement.setAttribute("data-done", "error");
  }

  function show(data) {
    $("error").textContent = "";
    var verdict = $("verdict");
    verdict.textContent = "";
    var badge = document.createElement("span");
    badge.className = "verdict " + data.verdict;
    badge.textContent = data.verdict;
    verdict.appendChild(badge);
    verdict.appendChild(document.createTextNode(
      " " + (data.format || "no format") + " · " + data.repairs.length + " repairs · " +
      data.violations.length + " violations"));
    verdict.setAttribute("data-verdict", data.verdict);
    $("marked").innerHTML = data.marked;  // escaped by the server
    $("legend").innerHTML = data.legend;  // escaped by the server
    $("payload").textContent = data.text === null ? "(none)" : data.text;
    $("guidance").textContent = data.guidance;
    rows($("counts"), Object.keys(data.counts).map(function (key) {
      return [key, data.counts[key], data.limits[key] || ""];
    }));
    rows($("lines"), data.expectations.map(function (e) {
      return [e.expect, e.ok === null ? "not evaluated" : e.ok ? "yes" : "no"];
    }));
    document.documentElement.setAttribute("data-done", "check");
  }

  function showStream(data) {
    $("error").textContent = "";
    var p = $("streamed");
    if (data.stopped) {
      p.textContent = "stopped after " + data.feeds + " of " + data.of + " chunks (" + data.fed + " of " +
        data.length + " characters read): " + (data.reason || "");
    } else {
      p.textContent = "not stopped: all " + data.feeds + " chunks read; the verdict at the end: " + data.verdict;
    }
    p.setAttribute("data-stopped", data.stopped ? "yes" : "no");
    $("streammarked").innerHTML = data.marked;  // escaped by the server
    document.documentElement.setAttribute("data-done", "stream");
  }

  function check() { return post("/api/check", request()).then(show, fail); }

  function stream() {
    var body = request();
    body.chunk = parseInt($("chunk").value, 10) || 16;
    return post("/api/stream", body).then(showStream, fail);
  }

  function load(name) {
    if (!name) { return Promise.resolve(); }
    return fetch("/api/example?name=" + encodeURIComponent(name)).then(function (r) { return r.json(); })
      .then(function (data) {
        if (data.error) { throw new Error(data.error); }
        $("reply").value = data.reply;
        $("expect").value = data.expect;
        $("example").value = name;
      });
  }

  $("check").addEventListener("click", check);
  $("stream").addEventListener("click", stream);
  $("example").addEventListener("change", function () { load($("example").value).then(check).catch(fail); });
  document.addEventListener("click", function (event) {
    var item = event.target.closest ? event.target.closest("ol.legend li") : null;
    if (!item) { return; }
    var number = item.getAttribute("data-m");
    $("marked").querySelectorAll("[data-m]").forEach(function (el) {
      var on = (" " + el.getAttribute("data-m") + " ").indexOf(" " + number + " ") >= 0;
      el.classList.toggle("lit", on);
    });
  });

  // #example=NAME&run=check|stream: load an example and run it (for links, and for tests)
  var hash = new URLSearchParams(location.hash.slice(1));
  fetch("/api/examples").then(function (r) { return r.json(); }).then(function (data) {
    data.examples.forEach(function (name) {
      var option = document.createElement("option");
      option.value = name;
      option.textContent = name;
      $("example").appendChild(option);
    });
    return load(hash.get("example") || "");
  }).then(function () {
    if (hash.get("run") === "check") { return check(); }
    if (hash.get("run") === "stream") { return check().then(stream); }
    document.documentElement.setAttribute("data-done", "ready");
  }).catch(fail);
})();
