from django.conf import settings
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from debates.forms import InterjectionForm
from debates.services.interjections import interjection_post
from debates.views.access import debate_for_owner


def _interjection_rate(group, request) -> str:
    return settings.FAULTLINE_INTERJECTION_RATE


@require_POST
def debate_interject(request, debate_id):
    """The owner's interjection into their running debate. Anyone else (another user, a share-link
    viewer) gets the same 404 as for a debate that does not exist."""
    debate = debate_for_owner(request, debate_id)
    form = InterjectionForm(request.POST, debate=debate)
    status = 200
    if is_ratelimited(request, group="interject", key="user", rate=_interjection_rate, method="POST", increment=True):
        form.is_valid()
        form.add_error(None, "You are interjecting faster than the debate can answer; wait a minute, then try again.")
        status = 429
    elif form.is_valid():
        try:
            interjection_post(debate=debate, draft=form.draft())
        except ValidationError as error:
            form.add_error(None, " ".join(error.messages))
            status = 400
        else:
            form = InterjectionForm(debate=debate)  # an empty form: the chat shows what was posted
    else:
        status = 400
    if request.htmx:  # htmx swaps only a 2xx answer: the form comes back with its error line in it
        return _page(request, debate, form, 200)
    return redirect("debate_live", debate_id=debate.id) if status == 200 else _page(request, debate, form, status)


def _page(request, debate, form, status):
    return render(request, "debates/partials/interjection_form.html", {"debate": debate, "form": form}, status=status)
