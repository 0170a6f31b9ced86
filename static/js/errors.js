// When an htmx action fails (Stop, Resume, Share, a deck change...), say so in #action-error,
// an alert region every page has, instead of leaving the button looking as if nothing happened.
// What failed comes from the element's data-action ("stop the debate"), or its button's label.
(function () {
  "use strict";

  function actionName(element) {
    var named = element && element.closest("[data-action]");
    if (named) return named.dataset.action;
    var button = element && (element.matches("button") ? element : element.querySelector("button"));
    return button ? "\u201c" + button.textContent.trim() + "\u201d" : "that action";
  }

  function why(xhr) {
    var own = xhr && xhr.getResponseHeader("X-Faultline-Error");
    if (own) return own;
    var status = xhr ? xhr.status : 0;
    if (status === 403) return "your session may have expired. Reload the page and try again.";
    if (status === 404) return "this debate is not available to you any more.";
    if (status === 429) return "too many requests. Wait a minute and try again.";
    if (status >= 500) return "the server had a problem (error " + status + "). Try again in a moment.";
    return "the server answered with error " + status + ".";
  }

  function show(text) {
    var region = document.getElementById("action-error");
    if (!region) return;
    region.textContent = text;
    region.scrollIntoView({ block: "nearest" });
  }

  function clear() {
    var region = document.getElementById("action-error");
    if (region && region.textContent) region.textContent = "";
  }

  document.addEventListener("htmx:responseError", function (event) {
    show("Could not " + actionName(event.detail.elt) + ": " + why(event.detail.xhr));
  });

  document.addEventListener("htmx:sendError", function (event) {
    show("Could not " + actionName(event.detail.elt) +
         ": the server did not answer. Check your connection and try again.");
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) clear();
  });
})();
