/* Record-a-hand page, progressively enhanced: the form works without this file.
   1. Each seat shows only the fields of the chosen entry (agreed score or full hand).
   2. A tap palette of tiles fills the full hand's text fields (sets, held tiles, bonus, the
      winner's winning tile); one palette, in the seat being entered.
   3. The discarder question is hidden when the winner drew the tile or it was a wall game;
      picking a discarder answers "on a discard" in the same tap, and "Nobody" "from the wall".
   4. A seat whose score changes no payment (a wall game; a loser where only the winner is
      paid) shows no score box: there is nothing to type. A loser whose hand may be worth
      nothing under the rule (bmja) has "0" shown in an empty box: empty counts as 0.
   5. After the last answer about the win, the cursor goes to the first score to type. */
(function () {
  "use strict";
  var SUITS = ["b", "c", "d"];
  var HONOURS = ["we", "ws", "ww", "wn", "dr", "dg", "dw"];
  var BONUS = ["f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4"];
  var LABELS = { we: "E", ws: "S", ww: "W", wn: "N", dr: "Red", dg: "Grn", dw: "Wht" };

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function appendWord(field, word, separator) {
    var current = field.value.replace(/\s+$/, "");
    field.value = current ? current + separator + word : word;
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function removeLastWord(field, separatorPattern) {
    var parts = field.value.split(separatorPattern).filter(function (p) { return p.trim(); });
    parts.pop();
    field.value = parts.join(separatorPattern.source === "," ? ", " : " ");
  }

  // One palette for the page, in the seat being entered (the seat whose "Full hand" was
  // chosen, or whose tile fields were last touched): four seats' palettes made the page of a
  // full-hand night about 5,500 px long on a phone.
  var palette = null;

  function fieldsOf(block) {
    return {
      melds: block.querySelector("textarea[name$='-melds']"),
      held: block.querySelector("input[name$='-concealed']"),
      bonus: block.querySelector("input[name$='-bonus']"),
      win: block.querySelector("input[name$='-win_tile']")
    };
  }

  function buildPalette() {
    var state = { block: null, target: "held", concealed: false };
    var node = el("div", { "class": "palette", role: "group", "aria-label": "Tile palette" });
    var targets = el("div", { "class": "targets" });
    var kinds = [["held", "Held tiles"], ["pung", "Pung"], ["kong", "Kong"], ["chow", "Chow"], ["pair", "Pair"], ["win", "Winning tile"]];
    var targetButtons = kinds.map(function (k) {
      var b = el("button", { type: "button", "data-target": k[0], "aria-pressed": String(k[0] === "held") }, k[1]);
      b.addEventListener("click", function () { choose(k[0]); });
      targets.appendChild(b);
      return b;
    });
    function choose(target) {
      state.target = target;
      targetButtons.forEach(function (o) { o.setAttribute("aria-pressed", String(o.getAttribute("data-target") === target)); });
    }
    var hidden = el("button", { type: "button", "data-concealed": "1", "aria-pressed": "false" }, "Concealed set");
    hidden.addEventListener("click", function () {
      state.concealed = !state.concealed;
      hidden.setAttribute("aria-pressed", String(state.concealed));
    });
    targets.appendChild(hidden);
    node.appendChild(targets);

    var grid = el("div", { "class": "tiles" });
    function tileButton(code, cls) {
      var b = el("button", { type: "button", "class": cls, "data-tile": code, "aria-label": code }, LABELS[code] || code);
      b.addEventListener("click", function () {
        var f = fieldsOf(state.block);
        if (state.target === "win" && f.win) {
          // The winning tile is one tile: a tap replaces it, then the palette goes back to
          // the held tiles.
          f.win.value = code;
          f.win.dispatchEvent(new Event("input", { bubbles: true }));
          return choose("held");
        }
        if (BONUS.indexOf(code) >= 0) return appendWord(f.bonus, code, " ");
        if (state.target === "held" || state.target === "win") return appendWord(f.held, code, " ");
        appendWord(f.melds, state.target + " " + code + (state.concealed ? " concealed" : ""), ", ");
      });
      grid.appendChild(b);
    }
    SUITS.forEach(function (s) { for (var n = 1; n <= 9; n++) tileButton(s + n, s); });
    HONOURS.forEach(function (h) { tileButton(h, "h"); });
    grid.appendChild(el("span"));
    grid.appendChild(el("span"));
    BONUS.forEach(function (f) { tileButton(f, "f"); });
    var undo = el("button", { type: "button", "class": "h", "aria-label": "Undo last" }, "⌫");
    undo.addEventListener("click", function () {
      var f = fieldsOf(state.block);
      if (state.target === "win" && f.win) f.win.value = "";
      else if (state.target === "held") removeLastWord(f.held, / +/);
      else removeLastWord(f.melds, /,/);
    });
    grid.appendChild(undo);
    node.appendChild(grid);

    return {
      node: node,
      // Into this seat's full-hand fields; "Winning tile" only where the seat won.
      moveTo: function (block) {
        if (state.block === block) return;
        state.block = block;
        block.insertBefore(node, block.firstChild);
        var legend = block.closest("fieldset").querySelector("legend");
        node.setAttribute("aria-label", "Tile palette" + (legend ? ": " + legend.textContent : ""));
        this.showWin();
      },
      showWin: function () {
        if (!state.block) return;
        var win = fieldsOf(state.block).win;
        var shown = !!win && !win.closest(".field").hidden;
        targetButtons[targetButtons.length - 1].hidden = !shown;
        if (!shown && state.target === "win") choose("held");
      }
    };
  }

  function showMode(entry) {
    var chosen = entry.querySelector("input[name$='-mode']:checked");
    var mode = chosen ? chosen.value : "quick";
    entry.querySelector(".quick").hidden = mode !== "quick";
    entry.querySelector(".full-hand").hidden = mode !== "full";
  }

  // Only the winner has a winning tile; only a loser can have been fishing.
  function showWinnerFields(form) {
    var winner = form.querySelector("input[name='winner']:checked");
    form.querySelectorAll(".seat-entry").forEach(function (entry) {
      var isWinner = !!winner && winner.value === entry.getAttribute("data-seat");
      var tile = entry.querySelector("input[name$='-win_tile']");
      var fishing = entry.querySelector("input[name$='-fishing']");
      if (tile) tile.closest(".field").hidden = !isWinner;
      if (fishing) fishing.closest(".field").hidden = isWinner;
    });
    if (palette) palette.showWin();
  }

  function showDiscarder(form) {
    var winner = form.querySelector("input[name='winner']:checked");
    var source = form.querySelector("input[name='win_source']:checked");
    var draw = winner && winner.value === "draw";
    var discarder = form.querySelector("input[name='discarder']");
    var howWon = form.querySelector("input[name='win_source']");
    if (howWon) howWon.closest("fieldset").hidden = !!draw;
    // Last tile, last discard, original call: about a win, so not asked of a wall game.
    var more = howWon && howWon.closest("fieldset").parentNode.querySelector(":scope > details");
    if (more) more.hidden = !!draw;
    if (discarder) {
      var needed = !draw && (!source || source.value === "discard" || source.value === "robbed_kong");
      discarder.closest("fieldset").hidden = !needed;
      if (!needed) {
        var nobody = form.querySelector("input[name='discarder'][value='']");
        if (nobody) nobody.checked = true;
      }
    }
  }

  function check(form, name, value) {
    var input = form.querySelector("input[name='" + name + "'][value='" + value + "']");
    if (input) input.checked = true;
  }

  // The two questions never disagree: a discarder means a discard (or a robbed kong), a tile
  // from the wall or the kong box means nobody discarded it.
  function agree(form, changed) {
    var source = form.querySelector("input[name='win_source']:checked");
    var discarder = form.querySelector("input[name='discarder']:checked");
    if (changed === "discarder" && discarder) {
      if (discarder.value && (!source || source.value === "wall" || source.value === "kong_box")) check(form, "win_source", "discard");
      if (!discarder.value && source && (source.value === "discard" || source.value === "robbed_kong")) check(form, "win_source", "wall");
    }
  }

  function scoresCount(form, entry) {
    var winner = form.querySelector("input[name='winner']:checked");
    if (!winner || winner.value === "draw") return !winner;
    if (winner.value === entry.getAttribute("data-seat")) return true;
    var goulash = form.querySelector("input[name='goulash']");
    var key = goulash && goulash.checked ? "data-goulash-losers-score" : "data-losers-score";
    return form.getAttribute(key) !== "0";
  }

  // A loser whose hand may be worth nothing under the rule: an empty box means 0 (the server
  // reads it so too), so only the losers who scored are typed.
  function emptyIsZero(form, entry) {
    var winner = form.querySelector("input[name='winner']:checked");
    if (!winner || winner.value === "draw" || winner.value === entry.getAttribute("data-seat")) return false;
    var goulash = form.querySelector("input[name='goulash']");
    var key = goulash && goulash.checked ? "data-goulash-losers-zero" : "data-losers-zero";
    return form.getAttribute(key) === "1";
  }

  function showScoresThatCount(form) {
    var winner = form.querySelector("input[name='winner']:checked");
    var draw = winner && winner.value === "draw";
    form.querySelectorAll(".seat-entry").forEach(function (entry) {
      var chosen = entry.querySelector("input[name$='-mode']:checked");
      // A full hand typed in stays in view: what was typed is never hidden.
      var nothing = !scoresCount(form, entry) && (!chosen || chosen.value === "quick");
      entry.classList.toggle("scores-nothing", nothing);
      var note = entry.querySelector(".nothing-note");
      if (!note) {
        note = el("p", { "class": "nothing-note small muted" });
        entry.querySelector(".mode").before(note);
      }
      note.textContent = draw ? "A wall game: nothing to type." : "Scores nothing this hand (only the winner is paid): nothing to type.";
      note.hidden = !nothing;
      [".mode", ".quick"].forEach(function (sel) {
        var part = entry.querySelector(sel);
        if (nothing) part.hidden = true;
      });
      if (!nothing) {
        entry.querySelector(".mode").hidden = false;
        showMode(entry);
      }
      var box = entry.querySelector("input[name$='-score']");
      var zero = !nothing && emptyIsZero(form, entry);
      if (box) box.placeholder = zero ? "0" : "";
      var hint = entry.querySelector(".zero-note");
      if (!hint && box) {
        hint = el("span", { "class": "helptext zero-note", id: box.id + "-zero" }, "Empty counts as 0: type it only if this hand scored.");
        box.after(hint);
      }
      if (hint) {
        hint.hidden = !zero;
        if (zero) box.setAttribute("aria-describedby", hint.id);
        else box.removeAttribute("aria-describedby");
      }
    });
  }

  function focusFirstScore(form) {
    var boxes = form.querySelectorAll(".seat-entry:not(.scores-nothing) .quick:not([hidden]) input[name$='-score']");
    for (var i = 0; i < boxes.length; i++) {
      if (!boxes[i].value) { boxes[i].focus(); return; }
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("record-form");
    if (!form) return;
    palette = buildPalette();
    form.querySelectorAll(".seat-entry").forEach(function (entry) {
      var block = entry.querySelector(".full-hand");
      showMode(entry);
      var chosen = entry.querySelector("input[name$='-mode']:checked");
      if (chosen && chosen.value === "full" && !palette.node.parentNode) palette.moveTo(block);
      entry.addEventListener("change", function (e) {
        if (e.target.name && /-mode$/.test(e.target.name)) {
          showMode(entry);
          if (e.target.value === "full") palette.moveTo(block);
        }
      });
      block.addEventListener("focusin", function (e) {
        if (e.target.matches("textarea, input[type=text]")) palette.moveTo(block);
      });
    });
    showDiscarder(form);
    showWinnerFields(form);
    showScoresThatCount(form);
    form.addEventListener("change", function (e) {
      var name = e.target.name || "";
      if (name === "discarder") agree(form, name);
      if (name === "winner" || name === "win_source") showDiscarder(form);
      if (name === "winner") showWinnerFields(form);
      if (name === "winner" || name === "goulash" || /-mode$/.test(name)) showScoresThatCount(form);
      // The win is told: type the scores (one tap fewer to reach the first box).
      if (name === "discarder" || (name === "win_source" && e.target.value !== "discard" && e.target.value !== "robbed_kong")) focusFirstScore(form);
    });
    // One tap, one submission: a second tap while the page loads would send the hand again.
    document.querySelectorAll("form").forEach(function (f) {
      f.addEventListener("submit", function (e) {
        if (f.dataset.sent) e.preventDefault();
        f.dataset.sent = "1";
      });
    });
    var preview = document.getElementById("preview");
    if (preview) {
      preview.scrollIntoView({ block: "start" });
      // What is saved is what the form holds: after a change, the preview no longer shows it.
      // Save still saves what the form holds; the preview is greyed with a note to say so.
      var markStale = function () {
        preview.classList.add("stale");
      };
      form.addEventListener("input", markStale);
      form.addEventListener("change", markStale);
    }
  });
})();
