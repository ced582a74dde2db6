/* The live round's page (live.html): follows the round without a reload and sends the answer
   without leaving the page. Without this script the page still works: its form posts and its
   "refresh" link reloads.

   - The server pushes the round's phase (/room/live/events, Server-Sent Events: another
     question, a question closed or paused, the round over); when it differs from the one shown,
     the page is fetched again and its #live part replaced.
   - The answer form posts with fetch (Accept: application/json) and shows "right" or "wrong"
     in place; a refusal is shown the same way.
   - The time left counts down each second. */
(function () {
  "use strict";

  var live = document.getElementById("live");
  if (!live || !window.fetch) {
    return;
  }
  var ticking = null;
  var source = null;

  function phase() {
    return live.getAttribute("data-phase") || "";
  }

  function showJsOnly() {
    var items = live.querySelectorAll(".js-only");
    for (var i = 0; i < items.length; i++) {
      items[i].classList.remove("hidden");
    }
  }

  function countDown() {
    if (ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
    var timer = document.getElementById("timer");
    if (!timer) {
      return;
    }
    var left = parseInt(timer.getAttribute("data-left"), 10);
    var text = timer.getAttribute("data-text") || "";
    ticking = setInterval(function () {
      left = Math.max(0, left - 1);
      timer.textContent = text.replace("{s}", String(left));
      if (left === 0) {
        clearInterval(ticking);
        ticking = null;
      }
    }, 1000);
  }

  function say(element, message, kind) {
    element.textContent = message;
    element.classList.remove("right", "wrong", "error");
    if (kind) {
      element.classList.add(kind);
    }
  }

  function refresh() {
    fetch("/room/live", { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (response.status === 410) {
          window.location.reload(); // the room closed: its own page says so
          return null;
        }
        return response.text();
      })
      .then(function (html) {
        if (html === null) {
          return;
        }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (!fresh) {
          return;
        }
        var hadFocus = live.contains(document.activeElement);
        var nodes = [];
        for (var i = 0; i < fresh.childNodes.length; i++) {
          nodes.push(document.importNode(fresh.childNodes[i], true));
        }
        live.replaceChildren.apply(live, nodes);
        live.setAttribute("data-phase", fresh.getAttribute("data-phase") || "");
        var old = document.getElementById("result");
        if (old) {
          old.remove(); // the last post's result belongs to the question gone
        }
        wire();
        var field = document.getElementById("answer");
        if (field && (hadFocus || document.activeElement === document.body)) {
          field.focus();
        }
      })
      .catch(function () { /* the next push, or the refresh link, tries again */ });
  }

  function send(form) {
    var result = document.getElementById("answer-result");
    var button = form.querySelector("button");
    if (button) {
      button.disabled = true;
    }
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { Accept: "application/json" }
    })
      .then(function (response) {
        return response.json();
      })
      .then(function (answer) {
        if (answer.ok) {
          form.remove();
          var timer = document.getElementById("timer");
          if (timer) {
            timer.remove();
          }
          say(result, answer.message, answer.correct ? "right" : "wrong");
          // The form is gone: the keyboard's focus goes to what replaced it.
          result.setAttribute("tabindex", "-1");
          result.focus();
        } else {
          say(result, answer.message, "error");
          if (button) {
            button.disabled = false;
          }
          if (answer.reload) {
            refresh();
          }
        }
      })
      .catch(function () {
        form.submit(); // as without the script: the page says what happened
      });
  }

  function wire() {
    showJsOnly();
    countDown();
    var form = document.getElementById("answer-form");
    if (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        send(form);
      });
    }
  }

  function listen() {
    if (!window.EventSource) {
      return;
    }
    source = new EventSource("/room/live/events?phase=" + encodeURIComponent(phase()));
    source.onmessage = function (event) {
      if (event.data !== phase()) {
        live.setAttribute("data-phase", event.data);
        refresh();
      }
    };
    source.addEventListener("closed", function () {
      source.close();
      window.location.reload();
    });
  }

  wire();
  listen();
}());
