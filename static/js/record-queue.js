/* Recording without signal (issue #24), on the record page and the table page.

   Without this file the record form posts as ever. With it:
   - a service worker (/sw.js, Workbox) keeps this table's pages and files for a spell
     without signal;
   - Save puts the hand in a queue on the phone (IndexedDB, through idb) and sends it at once;
     with no signal it stays there, the page says so ("Saved on this phone, 2 hands waiting for
     signal") and the next hand can be entered;
   - the queue is sent by the page itself, in order, whenever it can (on load, when the
     browser says it is online, and every few seconds while hands wait; Background Sync exists
     only in Chromium, so nothing depends on it), each hand as the very form the page would
     have posted, with its client_id: sent twice, it is saved once;
   - each answer is shown; a hand the server refuses stays on the phone with the reason until
     the scorer mends it, sends it as the next hand, or discards it: nothing is dropped
     silently. The queue outlives a closed browser (it is IndexedDB). */
(function () {
  "use strict";
  var dataNode = document.getElementById("queue-data");
  if (!dataNode || !window.indexedDB || !window.fetch || !window.idb) return;
  var data = JSON.parse(dataNode.textContent);
  var form = document.getElementById("record-form");
  var RETRY_MS = 5000;
  var TIMEOUT_MS = 15000;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(data.worker, { scope: "/" }).catch(function () {
      /* no worker (a private window): the queue still works while the page is open */
    });
    keepTheOtherPage();
  }

  /* The worker keeps a page only once it has been opened with signal. A scorer who came
     straight to the record page (a bookmark, a "Bob won" link) and then lost signal found the
     browser's own error page behind the table's link: so the record page fetches its table
     page once, through the worker, when it has no copy yet. (Never the other way round:
     opening the record page claims the table for this scorer.) */
  function keepTheOtherPage() {
    var urls = data.keep || [];
    if (!urls.length || !window.caches) return;
    function fetchMissing() {
      urls.forEach(function (url) {
        caches.match(url).then(function (kept) {
          if (kept || navigator.onLine === false) return;
          fetch(url, { credentials: "same-origin" }).then(function (response) {
            return response.ok ? response.text() : "";
          }).then(function (html) {
            // and its scripts (the table page's live refresh), which this page does not load
            var doc = new DOMParser().parseFromString(html, "text/html");
            doc.querySelectorAll("script[src]").forEach(function (script) {
              var src = new URL(script.getAttribute("src"), window.location.href);
              if (src.origin === window.location.origin) fetch(src.href).catch(function () {});
            });
          }).catch(function () { /* no signal: tried again when the page is next opened */ });
        });
      });
    }
    if (navigator.serviceWorker.controller) fetchMissing();
    else navigator.serviceWorker.addEventListener("controllerchange", fetchMissing, { once: true });
  }

  var dbPromise = idb.openDB("mahjong-recording", 1, {
    upgrade: function (db) { db.createObjectStore("queue", { keyPath: "client_id" }); },
  });

  function queued() {
    return dbPromise.then(function (db) { return db.getAll("queue"); }).then(function (items) {
      return items.sort(function (a, b) {
        return a.table - b.table || a.order - b.order || a.queued_at - b.queued_at;
      });
    });
  }
  function put(item) { return dbPromise.then(function (db) { return db.put("queue", item); }); }
  function drop(id) { return dbPromise.then(function (db) { return db.delete("queue", id); }); }
  function ofThisTable(items) { return items.filter(function (i) { return i.table === data.table; }); }

  // -- what the page shows -----------------------------------------------------------------

  var panel = document.createElement("section");
  panel.id = "queue-status";
  panel.className = "card queue";
  panel.setAttribute("role", "status");
  panel.setAttribute("aria-live", "polite");
  panel.hidden = true;
  var anchor = form || document.getElementById("live");
  if (anchor) anchor.parentNode.insertBefore(panel, anchor);
  // The server's latest answers, newest first; kept for this tab a few minutes, so they are
  // still shown after the page reloads itself once the queue has gone.
  var ANSWERS = "mahjong-answers-" + data.table;
  var answers = [];
  try {
    answers = JSON.parse(sessionStorage.getItem(ANSWERS) || "[]").filter(function (a) {
      return Date.now() - a.at < 5 * 60 * 1000;
    });
  } catch (e) { answers = []; }
  function tell(text) {
    answers.unshift({ text: text, at: Date.now() });
    answers = answers.slice(0, 8);
    try { sessionStorage.setItem(ANSWERS, JSON.stringify(answers)); } catch (e) { /* full */ }
  }
  var mending = null;  // the queued hand put back in the form, while it is mended
  var typing = false;  // the scorer has started on the next hand in the form
  var savedHere = 0;  // hands of this table the server saved while this page was open
  if (form) form.addEventListener("input", function () { typing = true; });

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function hands(n) { return n === 1 ? "1 hand" : n + " hands"; }

  function render() {
    return queued().then(function (all) {
      var mine = ofThisTable(all);
      var waiting = mine.filter(function (i) { return i.state !== "refused"; });
      var refused = mine.filter(function (i) { return i.state === "refused"; });
      var held = waiting.filter(function (i) { return i.problem; });
      panel.textContent = "";
      panel.hidden = !mine.length && !answers.length;
      // The warning edge only while hands wait or were refused, not for "Hand 3 saved".
      panel.classList.toggle("queue-calm", !mine.length);
      if (held.length) {
        // Why is said once, beside the hand (and in the log below), not again up here.
        panel.appendChild(el("p", { "class": "queue-headline neg" }, "Not recorded by the " +
          "club's server: " + hands(waiting.length) + " kept on this phone."));
      } else if (waiting.length) {
        panel.appendChild(el("p", { "class": "queue-headline" },
          "Saved on this phone, " + hands(waiting.length) + " waiting for signal."));
      }
      if (refused.length) {
        panel.appendChild(el("p", { "class": "queue-headline neg" }, hands(refused.length) +
          " not saved by the server: mend or discard " + (refused.length === 1 ? "it" : "them") +
          " below. " + (waiting.length ? "The hands after it wait until then." : "")));
      }
      if (mine.length) {
        var list = el("ul", { "class": "queue-list" });
        mine.forEach(function (item) { list.appendChild(itemRow(item)); });
        panel.appendChild(list);
        if (data.totals.length) panel.appendChild(totalsNote(mine.length));
        else panel.appendChild(el("p", { "class": "small queue-totals" }, "The totals below " +
          "are provisional: they do not count the " + hands(mine.length) + " on this phone yet."));
      }
      if (answers.length) {
        var log = el("ul", { "class": "small muted queue-answers" });
        answers.slice(0, 6).forEach(function (a) { log.appendChild(el("li", {}, a.text)); });
        panel.appendChild(log);
      }
      if (!form && mine.length) {
        var record = document.querySelector("#next-hand a.btn.block");
        if (record) record.textContent = "Record hand " + nextNumber(mine);
      }
      markTotals(mine.length > 0);
      if (form) numberTheForm(mine);
    });
  }

  function itemRow(item) {
    var li = el("li", { "data-client-id": item.client_id });
    var what = "Hand " + item.number + (item.summary ? " · " + item.summary : "");
    li.appendChild(el("span", {}, what));
    if (item.state !== "refused" && item.problem) {
      // Sent, but something other than the club's server answered: kept, and sent again
      // (by the timer, or now with Retry) under the same client_id, so it is saved once.
      li.appendChild(el("span", { "class": "small neg" }, " · not recorded, kept on this phone"));
      li.appendChild(el("p", { "class": "small neg", style: "margin:0.2rem 0" }, item.problem));
      var retry = el("div", { "class": "actions" });
      retry.appendChild(button("Retry", function () { sendSoon(); }));
      li.appendChild(retry);
      return li;
    }
    if (item.state !== "refused") {
      li.appendChild(el("span", { "class": "small muted" }, " · waiting"));
      return li;
    }
    li.className = "refused";
    li.appendChild(el("p", { "class": "small neg", style: "margin:0.2rem 0" },
      "Not saved: " + item.reason));
    var actions = el("div", { "class": "actions" });
    if (form) {
      actions.appendChild(button("Mend in the form", function () { mend(item); }));
    } else {
      var link = el("a", { href: item.url, "class": "btn secondary" }, "Mend on the record page");
      actions.appendChild(link);
    }
    actions.appendChild(button("Send as the next hand", function () { sendAsNext(item); }));
    var discard = button("Discard", function () {
      if (discard.getAttribute("data-sure")) return drop(item.client_id).then(sendSoon);
      discard.setAttribute("data-sure", "1");
      discard.textContent = "Tap again: hand " + item.number + " will not be saved";
    });
    actions.appendChild(discard);
    li.appendChild(actions);
    return li;
  }

  function button(text, onClick) {
    var b = el("button", { type: "button", "class": "btn secondary" }, text);
    b.addEventListener("click", onClick);
    return b;
  }

  function totalsNote(pending) {
    var p = el("p", { "class": "small queue-totals" });
    var figures = data.totals.map(function (t) { return t.name + " " + t.total; }).join(" · ");
    p.appendChild(el("strong", {}, "Provisional totals: "));
    p.appendChild(document.createTextNode(figures + " (as the server has them, without the " +
      hands(pending) + " on this phone)"));
    return p;
  }

  // The table page's running totals: marked provisional while hands wait on this phone.
  function markTotals(provisional) {
    document.querySelectorAll("#live .total").forEach(function (node) {
      node.classList.toggle("provisional", provisional);
      if (provisional) node.setAttribute("title", "Provisional: hands wait on this phone");
      else node.removeAttribute("title");
    });
  }

  // -- the form: the next hand's number, and Save into the queue -----------------------------

  function nextNumber(mine) {
    var last = data.next_number - 1;
    mine.forEach(function (i) { if (i.number > last) last = i.number; });
    return last + 1;
  }

  function numberTheForm(mine) {
    var n = mending ? mending.number : nextNumber(mine);
    form.querySelector("input[name=expected_number]").value = n;
    var heading = document.querySelector("h1");
    if (heading) heading.textContent = "Record hand " + n;
    document.title = document.title.replace(/^Record hand \d+/, "Record hand " + n);
    var save = form.querySelector("button[value=save]");
    if (save) save.textContent = "Save hand " + n;
    var note = document.getElementById("queue-winds-note");
    if (mine.length && !note) {
      note = el("p", { id: "queue-winds-note", "class": "small muted" }, "The winds shown are " +
        "those before the hands waiting on this phone: the server works out the seating when " +
        "it gets them.");
      form.parentNode.insertBefore(note, form);
    } else if (!mine.length && note) {
      note.remove();
    }
  }

  function summaryOfForm() {
    var winner = form.querySelector("input[name=winner]:checked");
    if (!winner) return "";
    var label = winner.closest("label");
    // The player's name without the wind ("South · Bob"): the wind may move before it is sent.
    var text = label ? label.textContent.replace(/\s+/g, " ").split("·").pop().trim() : "";
    return winner.value === "draw" ? "Wall game" : text ? text + " won" : "";
  }

  function fieldsOf(submitter) {
    var fields = [];
    new FormData(form, submitter).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    return fields;
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "10000000-1000-4000-8000-100000000000".replace(/[018]/g, function (c) {
      return (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16);
    });
  }

  if (form) {
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      var action = submitter && submitter.value;
      if (action === "preview" && !navigator.onLine) {
        event.preventDefault();
        tell("Preview needs signal. Save keeps the hand on this phone and sends it when there " +
          "is signal.");
        render();
        return;
      }
      if (action !== "save") return;
      event.preventDefault();
      // One tap, one hand. Until the form is cleared for the next hand it still holds this
      // hand and its client_id: a second Save then was queued under the same id, over the
      // hand just queued (IndexedDB keeps one entry an id), numbered one more, so the hand
      // was lost or refused. Save waits until the form is ready again.
      if (saving) return;
      saving = true;
      markToMend({});
      var saved = saveToQueue(submitter);  // reads the form (with its submitter) at once
      if (submitter) submitter.disabled = true;
      saved.catch(function () { readyToSave(); });
    });
  }

  var saving = false;  // a Save being queued: the form is not yet ready for the next hand

  function readyToSave() {
    saving = false;
    var save = form.querySelector("button[value=save]");
    if (save) save.disabled = false;
  }

  function saveToQueue(submitter) {
    // The hand as the form holds it when Save is tapped, not as it may be a moment later.
    var id = form.querySelector("input[name=client_id]").value;
    var fields = fieldsOf(submitter);
    var summary = summaryOfForm();
    return queued().then(function (all) {
      var mine = ofThisTable(all);
      var number = mending ? mending.number : nextNumber(mine);
      var order = mending ? mending.order : number;
      form.querySelector("input[name=expected_number]").value = number;
      var item = {
        client_id: id,
        table: data.table,
        url: window.location.pathname,
        fields: fields.map(function (pair) {
          return pair[0] === "expected_number" ? [pair[0], String(number)] : pair;
        }),
        number: number,
        order: order,
        queued_at: Date.now(),
        state: "waiting",
        summary: summary,
      };
      mending = null;
      return put(item);
    }).then(function () {
      return send();
    }).then(function (sentAll) {
      return dbPromise.then(function (db) { return db.get("queue", id); }).then(function (left) {
        // Refused as it was sent for what the form holds (a question unanswered, a score the
        // rule does not allow): the form stays as typed with the server's reason above it, as
        // without JavaScript, not a queued hand on the table page under "Record hand 2".
        if (left && left.state === "refused" && left.kind === "invalid") {
          // Only this answer about the hand: an earlier refusal of it was mended already.
          var prefix = "Hand " + left.number + " was not saved";
          answers = answers.filter(function (a, i) { return i === 0 || a.text.indexOf(prefix) !== 0; });
          try { sessionStorage.setItem(ANSWERS, JSON.stringify(answers)); } catch (e) { /* full */ }
          return mend(left).then(function () { panel.scrollIntoView(); });
        }
        return afterSend(sentAll);
      });
    });
  }

  function afterSend(sentAll) {
    if (sentAll) {
      window.location.href = data.table_url;  // as without JavaScript: the table, updated
      return;
    }
    readyForNextHand();
  }

  function readyForNextHand() {
    typing = false;
    readyToSave();
    form.reset();
    form.querySelector("input[name=client_id]").value = newId();
    form.querySelectorAll("input, select, textarea").forEach(function (f) {
      f.dispatchEvent(new Event("change", { bubbles: true }));
    });
    var preview = document.getElementById("preview");
    if (preview) preview.remove();
    render().then(function () { window.scrollTo(0, 0); });
  }

  function mend(item) {
    item.fields.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      if (name === "csrfmiddlewaretoken" || name === "action") return;
      form.querySelectorAll("[name='" + CSS.escape(name) + "']").forEach(function (f) {
        if (f.type === "radio" || f.type === "checkbox") f.checked = f.value === value;
        else f.value = value;
        f.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    // Nothing was saved under the refused entry's id, but a conflict may have been about the
    // id itself: the mended hand goes with a new one.
    form.querySelector("input[name=client_id]").value = newId();
    markToMend(item.notes || {});
    mending = { number: item.number, order: item.order };
    readyToSave();
    return drop(item.client_id).then(render).then(function () { form.scrollIntoView(); });
  }

  // The server's reasons beside the answers they are about (its red notes without JavaScript),
  // gone when the hand is saved again.
  function markToMend(notes) {
    form.querySelectorAll(".errorlist[data-queue-note]").forEach(function (n) { n.remove(); });
    Object.keys(notes).forEach(function (name) {
      var field = form.querySelector("[name='" + CSS.escape(name) + "']");
      var box = field && field.closest(".field");
      if (!box) return;
      var list = el("ul", { "class": "errorlist", "data-queue-note": "" });
      notes[name].forEach(function (text) { list.appendChild(el("li", {}, text)); });
      box.appendChild(list);
    });
  }

  function sendAsNext(item) {
    // Whatever number the server is at: the hand goes after every hand saved so far.
    item.fields = item.fields.filter(function (p) { return p[0] !== "expected_number"; });
    item.fields.push(["expected_number", ""]);
    item.state = "waiting";
    item.reason = "";
    item.order = Number.MAX_SAFE_INTEGER - 1e6 + (Date.now() % 1e6);
    return put(item).then(sendSoon);
  }

  // -- sending the queue ---------------------------------------------------------------------

  var sending = false;

  /* Send every waiting hand, each table's in order, until one cannot go. Resolves true when
     nothing is left waiting at this table. */
  function send() {
    if (sending) return Promise.resolve(false);
    sending = true;
    var blocked = {};
    return queued().then(function loop(items) {
      var item = items.find(function (i) { return !blocked[i.table]; });
      if (!item) return;
      if (item.state === "refused") {
        blocked[item.table] = true;  // the hands after a refused one wait for it
        return loop(items);
      }
      return post(item).then(function (outcome) {
        if (outcome === "retry") return;  // no signal (or no server): later, in the same order
        if (outcome === "blocked") blocked[item.table] = true;
        return queued().then(loop);
      });
    }).then(function () {
      return queued();
    }).then(function (items) {
      sending = false;
      var done = !ofThisTable(items).some(function (i) { return i.state !== "refused"; });
      if (form && done && savedHere && !typing && !items.length) {
        // Signal is back and everything went: the page again, with the seating as it now is.
        window.location.reload();
      }
      if (!form && done && savedHere) {
        // On the table page, its sheet at once (static/js/sheet.js), not at the next 20-second
        // refresh: until then the kept copy said "Hand 3 next" over "Record hand 5".
        savedHere = 0;
        document.dispatchEvent(new Event("mahjong:hands-saved"));
      }
      return render().then(function () { return done; });
    }, function () {
      sending = false;
      return false;
    });
  }

  function post(item) {
    var body = new URLSearchParams();
    // The page's own CSRF token where it has one (a login since the hand was queued changes it).
    var token = document.querySelector("input[name=csrfmiddlewaretoken]");
    item.fields.forEach(function (p) {
      body.append(p[0], p[0] === "csrfmiddlewaretoken" && token ? token.value : p[1]);
    });
    // A connection that hangs (a server gone mid-request, a half-open hall Wi-Fi) is given up
    // after a while and the hand sent again: if it did arrive, it is saved once all the same.
    var stop = window.AbortController ? new AbortController() : null;
    // Why the last try did not reach the club's server, shown beside the hand until one does.
    function held(problem) {
      if ((item.problem || "") === problem) return Promise.resolve("retry");
      if (problem) tell("Hand " + item.number + " was not recorded: " + problem);
      item.problem = problem;
      return put(item).then(function () { return "retry"; });
    }
    var timer = stop && window.setTimeout(function () { stop.abort(); }, TIMEOUT_MS);
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { Accept: "application/json" }, signal: stop ? stop.signal : undefined,
    }).then(function (response) {
      window.clearTimeout(timer);
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (!json) {
        if (response.redirected && response.url.indexOf("/accounts/login/") >= 0) {
          tell("Log in again to send the hands waiting on this phone (they stay here).");
          return held("");
        }
        if (response.status === 403 || response.status === 404) {
          tell("The server would not take the hands waiting on this phone (" + response.status +
            "): log in as a scorer of this club, then open this page again. They stay here.");
          return held("");
        }
        if (response.ok) {
          // 200 and a web page where the club's server answers JSON: a café's or a hall's
          // Wi-Fi login page (a captive portal) took the request, not the server.
          return held("The network answered with a login page, not the club's server: sign " +
            "in to the Wi-Fi, then tap Retry.");
        }
        return "retry";  // a proxy's error page, a server starting up: try again later
      }
      return response.json().then(function (answer) {
        if (answer.ok) {
          tell(answer.elsewhere
            ? "Hand " + answer.number + " was already saved from another phone: saved once."
            : answer.already
            ? "Hand " + answer.number + " was already saved (its answer had been lost): " +
              "saved once."
            : "Hand " + answer.number + " saved by the server.");
          if (item.table === data.table) {
            savedHere += 1;
            data.next_number = Math.max(data.next_number, answer.number + 1);
            data.totals.forEach(function (t) {
              if (answer.totals && answer.totals[t.seat] !== undefined) t.total = answer.totals[t.seat];
            });
          }
          return drop(item.client_id).then(function () { return "sent"; });
        }
        if (response.status >= 500) return "retry";
        item.state = "refused";
        item.problem = "";
        item.kind = answer.kind || "";
        item.reason = [answer.message, answer.saved, answer.yours].filter(Boolean).join(" ");
        item.notes = answer.fields || {};
        // Each answer to mend on a line of its own (joined, they read as one run-on line).
        tell("Hand " + item.number + " was not saved" + (answer.problems && answer.problems.length
          ? ":\n" + answer.problems.join("\n") : ": " + answer.message));
        return put(item).then(function () { return "blocked"; });
      });
    }, function () {
      window.clearTimeout(timer);
      // No answer: sent again later; if it did arrive, it is saved once. No signal now, so
      // an earlier login page is no longer the reason.
      return held("");
    });
  }

  function sendSoon() {
    return send();
  }

  // Back to this page after a Save sent everything (the browser's back-forward cache): the
  // form is ready for the next hand again, not waiting on a Save long done.
  window.addEventListener("pageshow", function (event) {
    if (form && event.persisted && saving) readyForNextHand();
  });
  window.addEventListener("online", sendSoon);
  window.setInterval(function () {
    queued().then(function (items) {
      if (items.some(function (i) { return i.state !== "refused"; })) sendSoon();
    });
  }, RETRY_MS);
  // Opened from a table page's "Bob won" link with no signal, the page is the kept copy of
  // the record page: answer the question the link asked, as the server would have.
  if (form) {
    var asked = new URLSearchParams(window.location.search).get("winner");
    if (asked) {
      var choice = form.querySelector("input[name=winner][value='" + CSS.escape(asked) + "']");
      if (choice) {
        choice.checked = true;
        choice.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
  }

  render().then(sendSoon);
})();
