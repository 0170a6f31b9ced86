"""What a mode's page draws: the data the debate templates read instead of branching on the mode.

The live page, its websocket snapshot, the replay and the results page render the same partials;
each asks ``view.panels`` (``panels_for(view.mode)``) which regions, sentences and mode templates
to draw. A mode's own templates live in ``templates/modes/<name>/``. Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

CHAT_COLUMNS = "debates/partials/chat_columns.html"
CHAT_LOG = "debates/partials/chat_log.html"
TURN_COUNTER = "debates/partials/turn_counter.html"


@dataclass(frozen=True)
class Panels:
    """One mode's page. Template paths are included as they are; empty means the mode draws none."""

    # The main body on the page, and the region of it a snapshot redraws (by id, out of band).
    body: str = CHAT_COLUMNS
    channel: str = CHAT_LOG
    # Panels drawn above the crux cards, each a partial that swaps itself by id.
    side_panels: tuple[str, ...] = ()
    # Crux cards and the persona positions beside the main channel.
    crux_cards: bool = True
    # Crux rooms: the drawer and its tabs and panels.
    crux_rooms: bool = True
    # The status line: its turn or round counter, and anything the mode adds after it.
    counter: str = TURN_COUNTER
    status_extras: tuple[str, ...] = ()
    # The banner: what runs while the debate is live, what the owner continues after a pause,
    # and where "Completed." points.
    live_sentence: str = "the personas are talking. Crux rooms open in the drawer below."
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


DIALOGUE = Panels()

# TEMPORARY: the mode spec table (debates/modes.py, ModeSpec.panels) takes these rows over;
# panels_for then reads mode_spec(mode).panels and this dict goes.
_PANELS_BY_MODE: dict[str, Panels] = {
    "dialogue": DIALOGUE,
    "graph": Panels(
        side_panels=("modes/graph/panel.html",),
        crux_rooms=False,
        live_sentence="the personas are talking. The argument map grows beside them.",
        cards_empty="Crux cards are dealt from the argument map when the debate ends.",
        results_detail="modes/graph/results.html",
    ),
    "analyst_critic": Panels(
        side_panels=("modes/analyst_critic/consensus_panel.html",),
        counter="modes/analyst_critic/round_counter.html",
        status_extras=("modes/analyst_critic/consensus_status.html",),
        live_sentence="the Analyst and the Critic argue to a consensus.",
        paused_suffix=" for the next round",
        results="modes/analyst_critic/results.html",
    ),
    "collaborate": Panels(
        body="modes/collaborate/collaboration.html",
        channel="modes/collaborate/collaboration.html",
        crux_cards=False,
        crux_rooms=False,
        counter="",
        live_sentence="the Architect and the Reviewer work side by side; a synthesis writes the artifact.",
        completed_href="#collab-artifact",
        completed_text="See the artifact",
        results="modes/collaborate/results.html",
        results_lead="modes/collaborate/results_artifact.html",
        owner_actions=("modes/collaborate/artifact_actions.html",),
    ),
}


def panels_for(mode: str) -> Panels:
    """What a debate of this mode draws; an unknown mode gets the plain dialogue page."""
    return _PANELS_BY_MODE.get(mode, DIALOGUE)
