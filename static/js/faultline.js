// Faultline's few behaviours that htmx does not cover: the crux-room drawer, keeping the chat
// scrolled to its newest message, the setup page's counters, copying the share link and the
// synthesis, saving a crux card or the synthesis through the owner's "Save to project" form, and
// sending an uploaded folder's file paths.
// Text is only ever written with textContent; nothing here builds HTML from strings.
(function () {
  "use strict";

  // ── Crux-room drawer ──────────────────────────────────────────────────────────────────────
  // Which room is open lives on #drawer (never swapped); tabs and panels are redrawn by the
  // websocket, so the state is re-applied after every swap.
  function drawerApply() {
    var drawer = document.getElementById("drawer");
    if (!drawer) return;
    var open = drawer.dataset.openRoom || "";
    if (open && !document.getElementById("room-panel-" + open)) open = "";
    drawer.classList.toggle("is-open", open !== "");
    // While the drawer slides shut, the panel that was open stays in it.
    if (open) {
      drawer.querySelectorAll(".room-panel").forEach(function (panel) {
        var hidden = panel.dataset.room !== open;
        if (panel.hidden !== hidden) panel.hidden = hidden;
      });
    }
    // Only what changes is written: this runs after every live update.
    drawer.querySelectorAll(".room-tab").forEach(function (tab) {
      var selected = tab.dataset.room === open ? "true" : "false";
      if (tab.getAttribute("aria-selected") !== selected) tab.setAttribute("aria-selected", selected);
      tab.classList.toggle("is-selected", selected === "true");
    });
  }

  function drawerToggle(roomId) {
    var drawer = document.getElementById("drawer");
    if (!drawer) return;
    drawer.dataset.openRoom = drawer.dataset.openRoom === roomId ? "" : roomId;
    drawerApply();
    if (drawer.dataset.openRoom) scrollToEnd(document.getElementById("room-log-" + roomId), true);
  }

  document.addEventListener("click", function (event) {
    var tab = event.target.closest(".room-tab");
    if (tab) {
      drawerToggle(tab.dataset.room);
      return;
    }
    if (event.target.closest("[data-drawer-close]")) {
      var drawer = document.getElementById("drawer");
      if (drawer) {
        drawer.dataset.openRoom = "";
        drawerApply();
      }
      return;
    }
    var saveCard = event.target.closest("[data-save-card]");
    if (saveCard) {
      // One crux card to the project picked in the owner's "Save to project" form.
      var form = document.querySelector("form.save-note");
      if (form) {
        form.elements.card.value = saveCard.dataset.saveCard;
        form.requestSubmit();
      }
      return;
    }
    var saveSynthesis = event.target.closest("[data-save-synthesis]");
    if (saveSynthesis) {
      // The synthesis alone, as a note, to the project picked in the owner's "Save to project" form.
      var saveForm = document.querySelector("form.save-note");
      if (saveForm) {
        saveForm.elements.card.value = "";
        saveForm.elements.what.value = "synthesis";
        saveForm.requestSubmit();
      }
      return;
    }
    var copyText = event.target.closest("[data-copy-text]");
    if (copyText) {
      // Text the page already holds (the synthesis), as written, line breaks and all.
      var feedback = function (text) { return function () { copyText.textContent = text; }; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(copyText.dataset.copyText).then(feedback("Copied"), feedback("Could not copy"));
      } else {
        feedback("Could not copy")();
      }
      return;
    }
    var copyUrl = event.target.closest("[data-copy-url]");
    if (copyUrl) {
      // Text the page does not hold yet (a finished debate's results): fetched, then copied. The
      // promise goes into the ClipboardItem so the copy still counts as the click's own.
      var text = fetch(copyUrl.dataset.copyUrl, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      });
      var done = function () { copyUrl.textContent = "Copied"; };
      var failed = function () { copyUrl.textContent = "Could not copy"; };
      if (navigator.clipboard && window.ClipboardItem) {
        navigator.clipboard
          .write([new ClipboardItem({ "text/plain": text.then(function (t) { return new Blob([t], { type: "text/plain" }); }) })])
          .then(done, failed);
      } else if (navigator.clipboard) {
        text.then(function (t) { return navigator.clipboard.writeText(t); }).then(done, failed);
      }
      return;
    }
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var input = document.querySelector(copy.dataset.copy);
      if (input) {
        input.select();
        if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(function () {});
        copy.textContent = "Copied";
      }
    }
  });

  document.addEventListener("keydown", function (event) {
    var drawer = document.getElementById("drawer");
    if (event.key === "Escape" && drawer && drawer.dataset.openRoom) {
      drawer.dataset.openRoom = "";
      drawerApply();
    }
  });

  // ── Keep live logs at their newest line, unless the reader scrolled up ────────────────────
  function nearEnd(element) {
    return element.scrollHeight - element.scrollTop - element.clientHeight < 80;
  }

  function scrollToEnd(element, force) {
    if (element && (force || element.dataset.stuck !== "false")) element.scrollTop = element.scrollHeight;
  }

  document.addEventListener("scroll", function (event) {
    var element = event.target;
    if (element.classList && (element.classList.contains("chat-log") || element.classList.contains("room-log"))) {
      element.dataset.stuck = nearEnd(element) ? "true" : "false";
    }
  }, true);

  function afterUpdate() {
    drawerApply();
    tickActivity();
    scrollToEnd(document.getElementById("chat-log"));
    var drawer = document.getElementById("drawer");
    if (drawer && drawer.dataset.openRoom) scrollToEnd(document.getElementById("room-log-" + drawer.dataset.openRoom));
  }

  // ── Connection state, shown on the page (and waited on by the browser tests) ──────────────
  function connection(state) {
    document.documentElement.dataset.live = state;
  }
  // The server closes with 4403 when the viewer may no longer watch (unshared, logged out); the
  // socket does not reconnect then, and the page says so instead of "reconnecting".
  var CLOSE_FORBIDDEN = 4403;
  var liveSocket = null;
  // The faultline map has a socket of its own (people's sides, per viewer): it is not the page's
  // live socket, never reports, and its state is not the page's.
  function isSidesSocket(event) {
    return event.target && event.target.hasAttribute && event.target.hasAttribute("data-sides-socket");
  }
  document.addEventListener("htmx:wsConnecting", function (event) {
    if (!isSidesSocket(event)) connection("connecting");
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    if (isSidesSocket(event)) return;
    liveSocket = event.detail.socketWrapper;
    connection("open");
  });
  document.addEventListener("htmx:wsClose", function (event) {
    if (isSidesSocket(event)) return;
    liveSocket = null;
    connection(event.detail.event && event.detail.event.code === CLOSE_FORBIDDEN ? "forbidden" : "closed");
  });

  // ── Never silently stale ──────────────────────────────────────────────────────────────────
  // Every few seconds, and when the tab comes back into view, tell the server which event the
  // page shows (the status line, redrawn by every event, carries its number). If the log holds
  // one the page never got (a push lost on the way), the server sends a fresh snapshot.
  var REPORT_EVERY_MS = 5000;
  function reportShown() {
    var status = document.getElementById("status-line");
    if (liveSocket && status && status.dataset.seq) {
      liveSocket.send(JSON.stringify({seq: Number(status.dataset.seq)}));
    }
  }
  setInterval(reportShown, REPORT_EVERY_MS);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") reportShown();
  });

  // ── How long the step under way has taken (the banner's activity line) ────────────────────
  // The server says what is happening once per step (data-step names it); the seconds are
  // counted here, shown once a step is slow, and outside the live region's words (aria-hidden).
  var SLOW_AFTER_SECONDS = 3;
  var stepShown = {key: null, since: 0};
  function tickActivity() {
    var now = document.querySelector("#debate-banner .activity-now[data-step]");
    var elapsed = document.querySelector("#debate-banner .activity-elapsed");
    if (!now || !elapsed) return;
    if (now.dataset.step !== stepShown.key) stepShown = {key: now.dataset.step, since: Date.now()};
    var seconds = Math.floor((Date.now() - stepShown.since) / 1000);
    var text = seconds >= SLOW_AFTER_SECONDS ? seconds + " s" : "";
    if (elapsed.textContent !== text) elapsed.textContent = text;
  }
  setInterval(tickActivity, 1000);

  // Once per frame at most, in the frame's own layout: reading a log's height right after each
  // message would lay the page out again for every message of a burst.
  var updateQueued = false;
  function afterUpdateSoon() {
    if (updateQueued) return;
    updateQueued = true;
    requestAnimationFrame(function () {
      updateQueued = false;
      afterUpdate();
    });
  }
  document.addEventListener("htmx:wsAfterMessage", afterUpdateSoon);
  document.addEventListener("htmx:afterSettle", afterUpdateSoon);

  // ── Setup page: how many cards are in the hand, how long the topic is ──────────────────────
  function handCount() {
    var picked = document.querySelectorAll("#hand input[name='personas']:checked").length;
    document.querySelectorAll(".hand-picked").forEach(function (el) { el.textContent = String(picked); });
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("#hand input[name='personas']")) handCount();
  });

  // ── Folder upload: the server gets only each file's name, so send its path in the folder ───
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches("input[type='file'][webkitdirectory]") || !input.form) return;
    var paths = input.form.querySelector("input[name='folder_paths']");
    if (!paths) return;
    paths.value = JSON.stringify(Array.prototype.map.call(input.files, function (file) {
      return file.webkitRelativePath || file.name;
    }));
  });

  document.addEventListener("input", function (event) {
    var counter = event.target.id && document.querySelector("[data-counter-for='" + event.target.id + "']");
    if (counter) counter.textContent = String(event.target.value.length);
  });

  document.addEventListener("DOMContentLoaded", function () {
    afterUpdate();
    handCount();
    // Crux cards offer "Save card to project" only where the page has the owner's save form.
    if (document.querySelector("form.save-note")) document.body.classList.add("can-save-cards");
  });
})();
