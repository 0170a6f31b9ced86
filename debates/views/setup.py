from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse

from debates.forms import DebateSetupForm
from debates.models import Debate
from debates.modes import DEFAULT_MODE, MAX_HAND, MIN_HAND, mode_find, modes_available
from debates.services import lifecycle, quotas
from debates.services.context import context_value
from debates.state import SUITS
from debates.views.access import debate_for_owner
from personas.models import Deck
from personas.selectors import deck_personas_for, decks_visible_to


def home(request):
    if request.user.is_authenticated:
        return redirect("debate_new")
    return render(request, "debates/home.html", {"decks": decks_visible_to(user=request.user)})


def _chosen_deck(params, decks: list[Deck]) -> Deck | None:
    wanted = params.get("deck", "")
    for deck in decks:
        if str(deck.pk) == wanted or deck.slug == wanted:
            return deck
    return decks[0] if decks else None


def _hand(deck: Deck | None, checked_ids: list[str], user) -> list[dict]:
    """The deck's personas the user may deal (the seed and their own) as cards, each with its suit
    and whether it is in the user's hand."""
    if deck is None:
        return []
    return [
        {"persona": persona, "suit": SUITS[index % len(SUITS)], "checked": str(persona.pk) in checked_ids}
        for index, persona in enumerate(deck_personas_for(deck=deck, user=user))
    ]


@login_required
def debate_new(request):
    decks = list(decks_visible_to(user=request.user))
    params = request.POST if request.method == "POST" else request.GET
    deck = _chosen_deck(params, decks)
    checked_ids = params.getlist("personas")
    show_errors = False
    if request.method == "POST" and "choose_deck" not in request.POST:
        form = DebateSetupForm(request.POST, deck=deck, user=request.user)
        show_errors = True
        if form.is_valid():
            data = form.cleaned_data
            try:
                debate = lifecycle.debate_start(
                    owner=request.user,
                    topic=data["topic"],
                    personas=list(data["personas"]),
                    deck=data["deck"],
                    mode=data["mode"],
                    context=data["context"],
                    options=lifecycle.DebateOptions(
                        length=data["length"],
                        auto_continue=data["auto_continue"],
                        pause_after_round=data["pause_after_round"],
                        rounds=data["rounds"],
                        recall_all_insights=data["recall_all_insights"],
                        rerun_of=data["rerun_of"],
                    ),
                )
            except ValidationError as error:
                form.add_service_errors(error)
            else:
                return redirect("debate_live", debate_id=debate.id)
    else:
        # First visit, or the no-JavaScript "show this deck" button: keep what was typed, no errors.
        initial = {
            "deck": deck,
            "length": params.get("length", Debate.Length.STANDARD),
            "mode": params.get("mode", DEFAULT_MODE),
            "topic": params.get("topic", ""),
            "context": params.get("context", ""),
            "auto_continue": params.get("auto_continue") == "1",
            "pause_after_round": params.get("pause_after_round") == "1",
            "rounds": params.get("rounds", ""),
            "recall_all_insights": params.get("recall_all_insights") == "1",
            "rerun_of": params.get("rerun_of", ""),
        }
        form = DebateSetupForm(initial=initial, deck=deck, user=request.user)
    hand = _hand(deck, checked_ids, request.user)
    picked = sum(card["checked"] for card in hand)
    length = form["length"].value() or Debate.Length.STANDARD
    mode = form["mode"].value() or DEFAULT_MODE
    per_mode = {spec.key: quotas.debate_cost_estimate(mode=spec.key) for spec in modes_available()}
    estimate = per_mode.get(mode) or quotas.debate_cost_estimate(mode=mode)
    return render(
        request,
        "debates/setup.html",
        {
            "form": form,
            "decks": decks,
            "deck": deck,
            "hand": hand,
            "picked": picked,
            "show_errors": show_errors,
            "estimate": estimate,
            "estimate_per_mode": {key: each.per_message for key, each in per_mode.items()},
            "estimate_basis_per_mode": {key: each.basis for key, each in per_mode.items()},
            "estimate_hand": max(picked, MIN_HAND),
            "estimate_usd": estimate.for_debate(
                hand=max(picked, MIN_HAND), max_turns=Debate.TURNS_FOR_LENGTH.get(length, 30)
            ),
            "turns_for_length": Debate.TURNS_FOR_LENGTH,
            "limits": quotas.quota_limits_for(user=request.user),
            "hand_min": MIN_HAND,
            "hand_max": MAX_HAND,
        },
    )


@login_required
def debate_hand(request):
    """The hand of cards for another deck (htmx swap when the deck changes), keeping the picks
    that are also in the new deck."""
    decks = list(decks_visible_to(user=request.user))
    deck = _chosen_deck(request.GET, decks)
    hand = _hand(deck, request.GET.getlist("personas"), request.user)
    return render(
        request,
        "debates/partials/hand.html",
        {
            "deck": deck,
            "hand": hand,
            "picked": sum(card["checked"] for card in hand),
            "hand_min": MIN_HAND,
            "hand_max": MAX_HAND,
        },
    )


@login_required
def debate_ask_again(request, debate_id):
    """ "Ask a new question" after a synthesis: the setup page with the same context, deck, hand and
    mode, the topic left for the new question."""
    debate = debate_for_owner(request, debate_id)
    params = [("mode", debate.mode)]
    if debate.deck_id:
        params.append(("deck", debate.deck_id))
    params += [("personas", persona_id) for persona_id in debate.participants.values_list("persona_id", flat=True)]
    if value := context_value(debate=debate):
        params.append(("context", value))
    if debate.auto_continue:
        params.append(("auto_continue", "1"))
    if debate.pause_after_round:
        params.append(("pause_after_round", "1"))
    if (spec := mode_find(debate.mode)) is not None and spec.rounds_setting:
        params.append(("rounds", debate.max_turns))  # a rounds mode's budget is its rounds
    if debate.recall_all_insights:
        params.append(("recall_all_insights", "1"))
    return redirect(f"{reverse('debate_new')}?{urlencode(params)}")
