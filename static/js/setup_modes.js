// The setup page's fields that only some modes use (rounds, auto-continue: data-for-modes lists
// them) are shown only while one of those modes is picked. The server renders the first state.
(function () {
  "use strict";

  function update() {
    var mode = document.querySelector("input[name='mode']:checked");
    var picked = mode ? mode.value : "";
    document.querySelectorAll("[data-for-modes]").forEach(function (field) {
      var hidden = field.dataset.forModes.split(" ").indexOf(picked) === -1;
      if (field.hidden !== hidden) field.hidden = hidden;
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("input[name='mode']")) update();
  });
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("DOMContentLoaded", update);
})();
