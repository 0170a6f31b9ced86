"""Taking a side on a crux from the faultline map: the owner's or a member's, one form per crux."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from debates.faultline_map import SIDE_CHOICES, CruxRow, faultline_map_of
from debates.selectors import debate_view
from debates.services.sides import MAX_BECAUSE, side_take, sides_forget
from debates.views.access import debate_for_team


class SideForm(forms.Form):
    crux = forms.IntegerField(min_value=0, max_value=10_000)
    side = forms.ChoiceField(
        choices=[(value.lower(), label) for value, label in SIDE_CHOICES],
        error_messages={"required": "Pick yes, no or nuanced.", "invalid_choice": "A side is yes, no or nuanced."},
    )
    because = forms.CharField(required=False, max_length=MAX_BECAUSE)


def _side_rate(group, request) -> str:
    return settings.FAULTLINE_SIDE_RATE


def side_context(*, debate, view, user, names: bool) -> dict:
    """What a page that draws the faultline map needs: the map for this viewer, whether they take
    sides, the words of the side buttons and the socket that keeps it live."""
    return {
        "faultlines": faultline_map_of(debate=debate, view=view, names=names, viewer_id=user.id if names else None),
        "can_take_sides": names,
        "side_choices": SIDE_CHOICES,
    }


@require_POST
@login_required
def debate_side_take(request, debate_id):
    """htmx gets the crux's form back (saved, or with why not); the open maps redraw once the side
    is committed. Without htmx: back to the results page with a message."""
    debate = debate_for_team(request, debate_id)
    form = SideForm(request.POST)
    error = ""
    if is_ratelimited(request, group="side", key="user", rate=_side_rate, method="POST", increment=True):
        error = "You are changing sides faster than anyone thinks; wait a minute, then try again."
    elif not form.is_valid():
        error = " ".join(message for errors in form.errors.values() for message in errors)
    else:
        data = form.cleaned_data
        try:
            side_take(debate=debate, user=request.user, crux=data["crux"], side=data["side"], because=data["because"])
        except ValidationError as refused:
            error = " ".join(refused.messages)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.info(request, "Your side is saved.")
        return redirect("debate_results", debate_id=debate.id)
    context = side_context(debate=debate, view=debate_view(debate_id=debate.id), user=request.user, names=True)
    number = form.cleaned_data.get("crux") if form.is_valid() else None
    row = context["faultlines"].row(number) if number is not None else None
    if row is None:  # no such crux: the form of the question, with why not
        row = context["faultlines"].row(0) or CruxRow(number=0, card_id=None, question=debate.topic)
    # htmx swaps only a 2xx answer: the form comes back with its error line in it.
    return render(
        request,
        "debates/partials/side_form.html",
        {**context, "row": row, "side_error": error, "side_saved": not error},
    )


@require_POST
@login_required
def debate_sides_forget(request, debate_id):
    """The signed-in person's own sides on the debate, all of them and their history, deleted."""
    debate = debate_for_team(request, debate_id)
    sides_forget(debate=debate, user=request.user)
    messages.info(request, "Your sides on this debate are deleted, with their history.")
    return redirect("debate_results", debate_id=debate.id)
