"""What a mode's page draws: the data the debate templates read instead of branching on the mode.

The live page, its websocket snapshot, the replay and the results page render the same partials;
each asks ``view.panels`` (the mode's spec row, ``debates.modes.mode_panels``) which regions, sentences and mode templates
to draw. A mode's own templates live in ``templates/modes/<name>/``. Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

CHAT_COLUMNS = "debates/partials/chat_columns.html"
CHAT_LOG = "debates/partials/chat_log.html"
TURN_COUNTER = "debates/partials/turn_counter.html"
# The discussion modes' "Where we are": rolling summary, proposals, decisions (conversation memory).
WHERE_WE_ARE = "debates/partials/where_we_are.html"


@dataclass(frozen=True)
class Panels:
    """One mode's page. Template paths are included as they are; empty means the mode draws none."""

    # The main body on the page, and the region of it a snapshot redraws (by id, out of band).
    body: str = CHAT_COLUMNS
    channel: str = CHAT_LOG
    # Panels drawn above the crux cards, each a partial that swaps itself by id.
    side_panels: tuple[str, ...] = ()
    # "Where we are" beside the main channel (WHERE_WE_ARE): the discussion's rolling summary,
    # proposals and decisions; redrawn on every conversation_noted event.
    where_we_are: bool = True
    # Crux cards and the persona positions beside the main channel.
    crux_cards: bool = True
    # Crux rooms: the drawer and its tabs and panels.
    crux_rooms: bool = True
    # The status line: its turn or round counter, and anything the mode adds after it.
    counter: str = TURN_COUNTER
    status_extras: tuple[str, ...] = ()
    # What the live page shows, in one sentence to someone who has not seen it (the setup page
    # says it for the mode picked). The banner says what is happening now (debates/activity.py).
    shows: str = (
        "You will see the chat, crux rooms opening in a drawer below it when two personas keep "
        "disagreeing, the crux cards they leave, and a map of who agrees with whom."
    )
    # The banner: what the owner continues after a pause, and where the verdict points.
    paused_suffix: str = ""
    completed_href: str = "#results"
    completed_text: str = "See the results"
    cards_empty: str = "Crux cards appear here when two personas dig into a disagreement in a crux room."
    # The mode's parts of the results section: its outcome under the heading, and its findings
    # after the verdict; and what the results page shows above the results.
    results: str = ""
    results_detail: str = ""
    results_lead: str = ""
    # What the owner alone gets below the main body (rendered by the page, never broadcast).
    owner_actions: tuple[str, ...] = ()
