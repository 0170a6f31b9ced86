"""Which partials an event redraws, and where they go (htmx out-of-band swaps).

Every fragment is rendered from the same partial templates as the full page, the replay and
the archive, with the folded DebateView as context.
"""

from __future__ import annotations

from django.template.loader import render_to_string

from debates.state import CardView, DebateView, EventKind, MessageView, RoomView

P = "debates/partials/"


def _render(template: str, **context) -> str:
    return render_to_string(P + template, context)


def _append(target_id: str, html: str) -> str:
    return f'<div hx-swap-oob="beforeend:#{target_id}">{html}</div>'


def message(message: MessageView, *, oob: bool = False) -> str:
    return _render("message.html", message=message, oob=oob)


def status_line(view: DebateView) -> str:
    return _render("status_line.html", view=view, oob=True)


def banner(view: DebateView) -> str:
    return _render("banner.html", view=view, oob=True)


def room_tab(room: RoomView, *, oob: bool = False) -> str:
    return _render("room_tab.html", room=room, oob=oob)


def crux_card(card: CardView, *, dealt: bool = False) -> str:
    """dealt: the card has just been posted (it animates in; a snapshot's cards do not)."""
    return _render("crux_card.html", card=card, dealt=dealt)


def room_head(room: RoomView) -> str:
    return _render("room_head.html", room=room, oob=True)


def snapshot(view: DebateView, *, can_resume: bool = False) -> str:
    """Everything the live page redraws on (re)connect, each region replaced by id.

    can_resume: the owner may resume a debate whose worker went quiet (not visible in the log)."""
    return _render("live_snapshot.html", view=view, can_resume=can_resume)


def for_event(view: DebateView, kind: str, payload: dict) -> str:
    parts: list[str] = []
    match kind:
        case EventKind.MESSAGE_STARTED:
            msg = view.message(payload["message_id"])
            if msg is not None and msg.room_id is None:
                item = view.chat[-1] if view.chat and view.chat[-1].message is msg else None
                parts.append(_append("chat-log", _render("chat_item.html", item=item, view=view)) if item else "")
            elif msg is not None:
                parts.append(_append(f"room-log-{msg.room_id}", message(msg)))
        case EventKind.MESSAGE_COMPLETED:
            msg = view.message(payload["message_id"])
            if msg is not None:
                parts.append(message(msg, oob=True))
        case EventKind.TURN_PASSED:
            parts.append(_append("chat-log", _render("chat_item.html", item=view.chat[-1], view=view)))
        case EventKind.ROOM_OPENED:
            room = view.room(payload["room_id"])
            parts.append(_append("drawer-tabs", room_tab(room)))
            parts.append(_append("drawer-panels", _render("room_panel.html", room=room)))
        case EventKind.ROOM_CLOSED:
            if room := view.room(payload["room_id"]):
                parts.append(room_tab(room, oob=True))
                parts.append(room_head(room))
        case EventKind.CARD_POSTED:
            card = view.cards[-1]
            parts.append(_append("crux-cards", crux_card(card, dealt=True)))
            parts.append(_append("chat-log", _render("chat_item.html", item=view.chat[-1], view=view)))
            if room := view.room(card.room_id):
                parts.append(room_tab(room, oob=True))
                parts.append(room_head(room))
        case EventKind.LEDGER_UPDATED:
            parts.append(_render("positions.html", view=view, oob=True))
        case EventKind.GRAPH_UPDATED:
            parts.append(_render("graph_panel.html", view=view, oob=True))
        case EventKind.DEBATE_FINISHED | EventKind.DEBATE_FAILED:
            parts.append(_render("results.html", view=view, oob=True))
    parts.append(status_line(view))
    parts.append(banner(view))
    return "".join(parts)
