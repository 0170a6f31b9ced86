import re

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render

from debates import exports, selectors
from debates.faultline_map import FaultlineMap, faultline_map_of
from debates.models import Event
from debates.views.access import debate_for_owner, debate_for_viewer
from debates.views.sides import side_context
from projects.selectors import project_list_for

MAX_QUERY_LENGTH = 200


@login_required
def debate_archive(request):
    query = request.GET.get("q", "").strip()[:MAX_QUERY_LENGTH]
    debates = selectors.debate_list_for(user=request.user, query=query)
    page = Paginator(debates, 20).get_page(request.GET.get("page"))
    shared_with_you = selectors.debate_list_shared_with(user=request.user)[:50] if page.number == 1 else []
    return render(request, "debates/archive.html", {"page": page, "query": query, "shared_with_you": shared_with_you})


def _step(raw: str | None, last: int) -> int:
    try:
        return min(max(int(raw), 0), last)
    except (TypeError, ValueError):
        return last


@login_required
def debate_replay(request, debate_id):
    """The debate as it stood after event ``?step=N``; without a step, all of it at once."""
    debate = debate_for_viewer(request, debate_id)
    last = debate.last_seq
    stepping = "step" in request.GET
    step = _step(request.GET.get("step"), last)
    view = selectors.debate_view(debate_id=debate.id, upto=step)
    event_kind = Event.objects.filter(debate=debate, seq=step).values_list("kind", flat=True).first() or ""
    context = {
        "debate": debate,
        "view": view,
        "step": step,
        "last": last,
        "stepping": stepping,
        "event_kind": event_kind,
        "prev_step": max(step - 1, 0),
        "next_step": min(step + 1, last),
        "hide_spend": not selectors.debate_sees_spend(debate=debate, user=request.user),
    }
    if request.htmx and request.htmx.target == "replay":
        return render(request, "debates/replay_body.html", context)
    return render(request, "debates/replay.html", context)


@login_required
def debate_results(request, debate_id):
    debate = debate_for_viewer(request, debate_id)
    view = selectors.debate_view(debate_id=debate.id)
    is_owner = debate.owner_id == request.user.id
    on_team = selectors.debate_is_on_team(debate=debate, user=request.user)
    return render(
        request,
        "debates/results.html",
        {
            "debate": debate,
            "view": view,
            "is_owner": is_owner,
            "projects": project_list_for(user=request.user) if is_owner else [],
            **side_context(debate=debate, view=view, user=request.user, names=on_team),
            "sides_ws_url": f"/ws/debates/{debate.id}/sides/",
            "hide_spend": not selectors.debate_sees_spend(debate=debate, user=request.user),
        },
    )


@login_required
def debate_results_text(request, debate_id):
    """The results as Markdown, shown as text (what Copy puts on the clipboard)."""
    debate = debate_for_viewer(request, debate_id)
    view = selectors.debate_view(debate_id=debate.id)
    markdown = exports.debate_results_markdown(
        debate=debate,
        view=view,
        with_context=debate.owner_id == request.user.id,
        faultlines=_faultlines(debate, view, request.user),
    )
    response = HttpResponse(markdown, content_type="text/plain; charset=utf-8")
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
def debate_summary(request, debate_id):
    """The results on one printable page: verdict and what it rests on, the final position map,
    the stance charts and the crux cards. The owner's alone: anyone else gets a 404."""
    debate = debate_for_owner(request, debate_id)
    view = selectors.debate_view(debate_id=debate.id)
    return render(request, "debates/summary.html", {"debate": debate, "view": view})


def _faultlines(debate, view, user) -> FaultlineMap:
    """Where people stand, as this reader may see it: names for the owner and members only."""
    return faultline_map_of(debate=debate, view=view, names=selectors.debate_is_on_team(debate=debate, user=user))


def _filename(debate, extension: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", debate.topic.lower()).strip("-")[:48] or "debate"
    return f"faultline-{slug}-{str(debate.id)[:8]}.{extension}"


def _download(content: str, *, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
def debate_export_markdown(request, debate_id):
    debate = debate_for_viewer(request, debate_id)
    view = selectors.debate_view(debate_id=debate.id)
    is_owner = debate.owner_id == request.user.id
    return _download(
        exports.debate_markdown(
            debate=debate,
            view=view,
            with_failure_reason=is_owner,
            with_context=is_owner,
            with_spend=selectors.debate_sees_spend(debate=debate, user=request.user),
            faultlines=_faultlines(debate, view, request.user),
        ),
        content_type="text/markdown; charset=utf-8",
        filename=_filename(debate, "md"),
    )


@login_required
def debate_export_json(request, debate_id):
    debate = debate_for_viewer(request, debate_id)
    events = selectors.debate_events(debate_id=debate.id)
    is_owner = debate.owner_id == request.user.id
    return _download(
        exports.debate_json(
            debate=debate,
            events=events,
            with_failure_reason=is_owner,
            with_context=is_owner,
            with_spend=selectors.debate_sees_spend(debate=debate, user=request.user),
            faultlines=_faultlines(debate, selectors.debate_view(debate_id=debate.id), request.user),
        ),
        content_type="application/json; charset=utf-8",
        filename=_filename(debate, "json"),
    )
