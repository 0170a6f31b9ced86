// The setup page's cost estimate, shown once a hand is picked: (an opening and a closing per
// persona + the length's turns) times the estimated cost of one message of the chosen mode, with
// what that figure rests on; redone as the hand, length and mode change.
(function () {
  "use strict";

  function update() {
    var box = document.getElementById("cost-estimate");
    if (!box) return;
    var min = 2;
    var count = document.querySelector(".hand-count");
    if (count && count.dataset.handMin) min = parseInt(count.dataset.handMin, 10);
    var picked = document.querySelectorAll("#hand input[name='personas']:checked").length;
    var figure = box.querySelector(".cost-estimate-figure");
    var wait = box.querySelector(".cost-estimate-wait");
    if (figure.hidden !== picked < min) figure.hidden = picked < min;
    if (wait.hidden !== picked >= min) wait.hidden = picked >= min;
    var hand = Math.max(picked, min);
    var length = document.querySelector("input[name='length']:checked");
    var turns = parseInt(box.dataset["turns" + (length ? length.value.charAt(0).toUpperCase() + length.value.slice(1) : "Standard")] || "30", 10);
    var mode = document.querySelector("input[name='mode']:checked");
    var perMessage = (mode && box.getAttribute("data-per-message-" + mode.value)) || box.dataset.perMessage;
    var basis = mode && box.getAttribute("data-basis-" + mode.value);
    var cost = parseFloat(perMessage) * (2 * hand + turns);
    box.querySelector(".cost-estimate-value").textContent = "$" + cost.toFixed(2);
    box.querySelector(".cost-estimate-hand").textContent = String(hand);
    if (basis) box.querySelector(".cost-estimate-basis").textContent = basis;
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("#hand input[name='personas'], input[name='length'], input[name='mode']")) update();
  });
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("DOMContentLoaded", update);
})();
