from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from debates.forms import InterjectionForm
from debates.models import Debate
from debates.selectors import debate_is_on_team, debate_sees_spend
from debates.services import lifecycle
from debates.snapshot import debate_live_view
from debates.views.access import debate_for_owner, debate_for_share_token, debate_for_viewer
from debates.views.sides import side_context
from projects.selectors import project_list_for


def _live_page(request, debate, *, ws_url: str, is_owner: bool, shared: bool):
    view = debate_live_view(debate_id=debate.id)
    on_team = not shared and debate_is_on_team(debate=debate, user=request.user)
    sides_ws_url = f"/ws/debates/{debate.id}/sides/" + (
        f"?{urlencode({'share': debate.share_token})}" if shared else ""
    )
    share_url = (
        request.build_absolute_uri(reverse("debate_shared", kwargs={"token": debate.share_token}))
        if is_owner and debate.share_token
        else ""
    )
    return render(
        request,
        "debates/live.html",
        {
            "debate": debate,
            "view": view,
            "ws_url": ws_url,
            "is_owner": is_owner,
            "shared": shared,
            "share_url": share_url,
            "can_resume": is_owner and lifecycle.debate_can_resume(debate=debate),
            "projects": project_list_for(user=request.user) if is_owner else [],
            "interjection_form": InterjectionForm(debate=debate) if is_owner else None,
            **side_context(debate=debate, view=view, user=request.user, names=on_team),
            "sides_ws_url": sides_ws_url,
            "hide_spend": shared or not debate_sees_spend(debate=debate, user=request.user),
        },
    )


@login_required
def debate_live(request, debate_id):
    debate = debate_for_viewer(request, debate_id)
    return _live_page(
        request, debate, ws_url=f"/ws/debates/{debate.id}/", is_owner=debate.owner_id == request.user.id, shared=False
    )


def debate_shared(request, token):
    """Anyone with the link may watch, read-only."""
    debate = debate_for_share_token(token)
    return _live_page(
        request, debate, ws_url=f"/ws/debates/{debate.id}/?{urlencode({'share': token})}", is_owner=False, shared=True
    )


def debate_failure_reason(request, debate_id):
    """Why the debate failed, for its owner only; anyone else gets an empty span (never a login
    redirect or an error: the banner that asks is shown to share viewers too)."""
    reason = ""
    if request.user.is_authenticated:
        # The same empty answer for a debate that is not yours and for one that does not exist.
        reason = (
            Debate.objects.filter(pk=debate_id, owner=request.user, status=Debate.Status.FAILED)
            .values_list("failure_reason", flat=True)
            .first()
            or ""
        )
    return render(request, "debates/partials/failure_reason.html", {"reason": reason})


def _owner_action(request, debate_id, action, *, done: str, htmx_reply: str = ""):
    """One of the owner's buttons on the live page: the service, then a message saying what happens
    (or why it was refused), then back to the page. An htmx press gets ``htmx_reply`` in place of
    the button when there is one, else a refresh that shows the message."""
    debate = debate_for_owner(request, debate_id)
    try:
        action(debate=debate)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if request.htmx and htmx_reply:
            return HttpResponse(htmx_reply)
        messages.info(request, done)
    if request.htmx:
        return HttpResponseClientRefresh()
    return redirect("debate_live", debate_id=debate.id)


@require_POST
@login_required
def debate_stop(request, debate_id):
    return _owner_action(
        request,
        debate_id,
        lifecycle.debate_stop,
        done="Stopping after the current turn.",
        htmx_reply='<span class="stopping">Stopping after the current turn…</span>',
    )


@require_POST
@login_required
def debate_pause(request, debate_id):
    return _owner_action(
        request,
        debate_id,
        lifecycle.debate_pause,
        done="Pausing after the current turn.",
        htmx_reply='<span class="pausing">Pausing after the current turn…</span>',
    )


@require_POST
@login_required
def debate_continue(request, debate_id):
    return _owner_action(
        request,
        debate_id,
        lifecycle.debate_continue,
        done="Continuing where the debate paused.",
        htmx_reply='<span class="continuing">Continuing…</span>',
    )


@require_POST
@login_required
def debate_resume(request, debate_id):
    return _owner_action(
        request, debate_id, lifecycle.debate_resume, done="Resuming: the debate carries on from its last saved step."
    )


@require_POST
@login_required
def debate_share(request, debate_id):
    return _owner_action(
        request, debate_id, lifecycle.debate_share, done="Anyone with the link can now watch this debate (read-only)."
    )


@require_POST
@login_required
def debate_unshare(request, debate_id):
    return _owner_action(
        request,
        debate_id,
        lifecycle.debate_unshare,
        done="The share link no longer works; the debate is private again.",
    )
