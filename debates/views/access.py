from django.http import Http404
from django.shortcuts import get_object_or_404

from debates.models import Debate
from debates.selectors import debate_is_on_team, debate_visible_to


def debate_for_viewer(request, debate_id) -> Debate:
    """The debate if the user may see it (owner, or the view_any_debate permission); 404 otherwise, so a private debate's
    existence is not revealed."""
    debate = get_object_or_404(Debate, pk=debate_id)
    if not debate_visible_to(debate=debate, user=request.user):
        raise Http404("No such debate.")
    return debate


def debate_for_owner(request, debate_id) -> Debate:
    """The debate if the user owns it: only the owner stops, resumes or shares it."""
    debate = get_object_or_404(Debate, pk=debate_id)
    if not request.user.is_authenticated or debate.owner_id != request.user.id:
        raise Http404("No such debate.")
    return debate


def debate_for_share_token(token: str) -> Debate:
    if not token:
        raise Http404("No such debate.")
    return get_object_or_404(Debate, share_token=token)


def debate_for_team(request, debate_id) -> Debate:
    """The debate if the user owns it or is one of its members: who takes sides on it."""
    debate = get_object_or_404(Debate, pk=debate_id)
    if not debate_is_on_team(debate=debate, user=request.user):
        raise Http404("No such debate.")
    return debate
