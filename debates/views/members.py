"""The owner's team on a debate: invite by link or by user name, remove; and accepting an invite."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from debates.models import DebateInvite
from debates.selectors import debate_members
from debates.services import members
from debates.views.access import debate_for_owner

INVITE_TOO_FAST = "You are inviting faster than anyone reads invitations; wait a while, then try again."


class MemberAddForm(forms.Form):
    username = forms.CharField(
        label="Their user name", max_length=150, error_messages={"required": "Type the user name of the person."}
    )


def _invite_rate(group, request) -> str:
    return settings.FAULTLINE_INVITE_RATE


def _invites_too_fast(request) -> bool:
    return is_ratelimited(request, group="invite", key="user", rate=_invite_rate, method="POST", increment=True)


def _page(request, debate, *, form=None, new_link: str = "", status: int = 200):
    return render(
        request,
        "debates/members.html",
        {
            "debate": debate,
            "members": debate_members(debate=debate),
            "form": form or MemberAddForm(),
            "new_link": new_link,
        },
        status=status,
    )


@login_required
def debate_members_page(request, debate_id):
    return _page(request, debate_for_owner(request, debate_id))


@require_POST
@login_required
def debate_invite_link(request, debate_id):
    """A fresh single-use link, shown once on the page for the owner to pass on."""
    debate = debate_for_owner(request, debate_id)
    if _invites_too_fast(request):
        messages.error(request, INVITE_TOO_FAST)
        return _page(request, debate, status=429)
    token = members.debate_invite_link_create(debate=debate)
    return _page(request, debate, new_link=request.build_absolute_uri(reverse("invite_accept", args=[token])))


@require_POST
@login_required
def debate_member_add(request, debate_id):
    debate = debate_for_owner(request, debate_id)
    form = MemberAddForm(request.POST)
    if _invites_too_fast(request):
        messages.error(request, INVITE_TOO_FAST)
        return _page(request, debate, form=form, status=429)
    if not form.is_valid():
        return _page(request, debate, form=form, status=400)
    username = form.cleaned_data["username"]
    members.debate_member_add(debate=debate, username=username)
    # The same sentence whether or not the name has an account.
    messages.info(request, f"If “{username}” has an account here, they are now a member of this debate.")
    return redirect("debate_members", debate_id=debate.id)


@require_POST
@login_required
def debate_member_remove(request, debate_id, user_id):
    debate = debate_for_owner(request, debate_id)
    if not members.debate_member_remove(debate=debate, user_id=user_id):
        raise Http404("No such member.")
    messages.info(request, "Removed: their open pages are closed and the debate is hidden from them.")
    return redirect("debate_members", debate_id=debate.id)


@login_required
def invite_accept(request, token):
    """GET asks (a link preview must not use the invite up); POST joins. A used link and one that
    never existed get the same 404."""
    invite = DebateInvite.objects.select_related("debate", "debate__owner").filter(token=token).first()
    usable = invite is not None and (
        invite.accepted_by_id in (None, request.user.id) or invite.debate.owner_id == request.user.id
    )
    if not usable:
        raise Http404(members.INVITE_REFUSED)
    if request.method == "POST":
        try:
            debate = members.debate_invite_accept(token=token, user=request.user)
        except ValidationError as refused:
            raise Http404(members.INVITE_REFUSED) from refused
        return redirect("debate_results", debate_id=debate.id)
    return render(request, "debates/invite.html", {"invite": invite})
