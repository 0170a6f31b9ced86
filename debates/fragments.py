"""Which partials an event redraws, and where they go (htmx out-of-band swaps).

Every fragment is rendered from the same partial templates as the full page, the replay and
the archive, with the folded DebateView as context.
"""

from __future__ import annotations

from django.template.loader import render_to_string

from debates import payloads as p
from debates.faultline_map import SIDE_CHOICES, FaultlineMap
from debates.modes import mode_find
from debates.state import CardView, DebateView, MessageView, RoomView

P = "debates/partials/"


def _render(template: str, **context) -> str:
    return render_to_string(P + template, context)


def _append(target_id: str, html: str) -> str:
    return f'<div hx-swap-oob="beforeend:#{target_id}">{html}</div>'


def message(message: MessageView, *, oob: bool = False) -> str:
    return _render("message.html", message=message, oob=oob)


def message_text(message: MessageView) -> str:
    """A streaming message's text so far, alone: its header (the typing dots) stays as it is."""
    return _render("message_text.html", message=message, oob=True)


def collaboration_target(message: MessageView) -> str:
    """Where a collaboration's message goes: the artifact below, or its role's column."""
    return "collab-artifact" if message.kind == "artifact" else f"collab-column-{message.seat}"


def _seat_columns(view: DebateView) -> bool:
    """The mode draws its main channel as one column per seat (its spec row says so)."""
    spec = mode_find(view.mode)
    return spec is not None and spec.seat_columns


def status_line(view: DebateView, *, hide_spend: bool = False) -> str:
    """hide_spend: without the tokens and the cost, which are the owner's alone."""
    return _render("status_line.html", view=view, oob=True, hide_spend=hide_spend)


def banner(view: DebateView) -> str:
    return _render("banner.html", view=view, oob=True)


def room_tab(room: RoomView, *, oob: bool = False) -> str:
    return _render("room_tab.html", room=room, oob=oob)


def crux_card(card: CardView, *, dealt: bool = False, number: int | None = None) -> str:
    """dealt: the card has just been posted (it animates in; a snapshot's cards do not); number:
    its place among the debate's cards, as the results page and ``manage.py stand`` count them."""
    return _render("crux_card.html", card=card, dealt=dealt, number=number)


def room_head(room: RoomView) -> str:
    return _render("room_head.html", room=room, oob=True)


def people_sides(faultlines: FaultlineMap) -> str:
    """The people's side of the faultline map, as one viewer may see it: each crux's people, then
    the camps (the questions, the personas' sides and the viewer's own forms stay as they are)."""
    parts = [_render("faultline_people.html", row=row, faultlines=faultlines, oob=True) for row in faultlines.rows]
    parts.append(_render("faultline_camps.html", faultlines=faultlines, oob=True))
    return "".join(parts)


def faultline_rows(faultlines: FaultlineMap, *, can_take_sides: bool) -> str:
    """The whole faultline map for one viewer: every crux row (with their own forms when they take
    sides), then the camps."""
    rows = _render(
        "faultline_rows.html",
        faultlines=faultlines,
        can_take_sides=can_take_sides,
        side_choices=SIDE_CHOICES,
        oob=True,
    )
    return rows + _render("faultline_camps.html", faultlines=faultlines, oob=True)


def snapshot(view: DebateView, *, can_resume: bool = False, hide_spend: bool = False) -> str:
    """Everything the live page redraws on (re)connect, each region replaced by id.

    can_resume: the owner may resume a debate whose worker went quiet (not visible in the log);
    hide_spend: a viewer other than the owner (the status line without the tokens and the cost)."""
    return _render("live_snapshot.html", view=view, can_resume=can_resume, hide_spend=hide_spend)


def for_event(
    view: DebateView, kind: str, payload: dict | p.Payload, *, with_banner: bool = True, hide_spend: bool = False
) -> str:
    """The fragments one event changes, rendered from the view folded up to and including it.

    The status line goes with every event: it carries the event's number, which the page reports
    back. with_banner=False leaves the banner out, for a caller that sends it only when it
    changed (``debates.event_feed``: a page then does not redraw its live region, and restart
    the live dot, for nothing). hide_spend: the status line without what the debate spent, for
    viewers other than its owner."""
    event = p.parse_payload(kind, payload)
    parts: list[str] = []
    match event:
        case p.MessageStarted():
            msg = view.message(event.message_id)
            if msg is not None and msg.room_id is None and _seat_columns(view):
                parts.append(_append(collaboration_target(msg), message(msg)))
            elif msg is not None and msg.room_id is None:
                item = view.chat[-1] if view.chat and view.chat[-1].message is msg else None
                parts.append(_append("chat-log", _render("chat_item.html", item=item, view=view)) if item else "")
            elif msg is not None:
                parts.append(_append(f"room-log-{msg.room_id}", message(msg)))
        case p.MessageCompleted():
            msg = view.message(event.message_id)
            if msg is not None:
                parts.append(message(msg, oob=True))
        case p.MessageWithdrawn():
            parts.append(_render("message_withdrawn.html", message_id=event.message_id))
        case p.TurnPassed():
            parts.append(_append("chat-log", _render("chat_item.html", item=view.chat[-1], view=view)))
        case p.RoomOpened():
            room = view.room(event.room_id)
            parts.append(_append("drawer-tabs", room_tab(room)))
            parts.append(_append("drawer-panels", _render("room_panel.html", room=room)))
        case p.RoomClosed():
            if room := view.room(event.room_id):
                parts.append(room_tab(room, oob=True))
                parts.append(room_head(room))
        case p.CardPosted():
            card = view.cards[-1]
            parts.append(_append("crux-cards", crux_card(card, dealt=True, number=len(view.cards))))
            parts.append(_append("chat-log", _render("chat_item.html", item=view.chat[-1], view=view)))
            if room := view.room(card.room_id):
                parts.append(room_tab(room, oob=True))
                parts.append(room_head(room))
        case p.LedgerUpdated():
            parts.append(_render("positions.html", view=view, oob=True))
        case p.CirclingNoticed():
            parts.append(_append("chat-log", _render("chat_item.html", item=view.chat[-1], view=view)))
        case p.ConversationNoted() if view.panels.where_we_are:
            parts.append(_render("where_we_are.html", view=view, oob=True))
        case p.GraphUpdated() | p.RoundScored():  # a mode's own state moved: its side panels redraw
            parts.extend(render_to_string(name, {"view": view, "oob": True}) for name in view.panels.side_panels)
        case p.MemoryRecalled():
            parts.append(_render("memory.html", view=view, oob=True))
        case p.InterjectionPosted():
            item = view.chat[-1]
            if _seat_columns(view):
                parts.append(_append("interjection-log", _render("interjection.html", interjection=item.interjection)))
            else:
                parts.append(_append("chat-log", _render("chat_item.html", item=item, view=view)))
        case p.InterjectionAnswered():
            if interjection := view.interjection(event.interjection_id):
                parts.append(_render("interjection.html", interjection=interjection, oob=True))
        case p.DebateFinished() | p.DebateFailed():
            parts.append(_render("results.html", view=view, oob=True))
            parts.append(_render("interjection_slot.html", form=None, oob=True))  # it takes no more
            # A side panel's interim reading gives way to the verdict sentence.
            parts.extend(render_to_string(name, {"view": view, "oob": True}) for name in view.panels.side_panels)
        case p.QuestionDecided():
            parts.append(_render("decided_on.html", view=view, oob=True))
    parts.append(status_line(view, hide_spend=hide_spend))
    if with_banner:
        parts.append(banner(view))
    return "".join(parts)
