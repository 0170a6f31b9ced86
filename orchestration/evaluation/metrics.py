"""What the evaluation measures, per debate and per suite. Pure: plain dicts in, plain dicts out.

Per debate (``debate_metrics``):
- recall: planted cruxes some card found ÷ planted cruxes (a card finds one when its question holds
  every keyword of the planted question); precision: cards that found a planted crux ÷ cards;
- fake consensus: the regime says "consensus" where the scenario's personas end up disagreeing
  (and, for comparison, what the cards alone would have said: the rule before the ledger check);
  missed consensus: anything else where they truly agree;
- duplicate rooms: rooms past the first on the same crux (the same planted crux, or the same
  wording when it matches none);
- crux compression: resolved cards ÷ cards (the seed's measure of a debate that settles things);
- disagreement entropy per round: Shannon entropy (bits) of the personas' recorded sides at the end
  of each round (one message per persona), from the position ledger;
- forbidden phrases and prompt furniture that reached the page;
- model calls, tokens and cost.
"""

from __future__ import annotations

from statistics import mean

# Scaffolding of the prompt that must never show on the page (orchestration/voice.py removes it).
FURNITURE_MARKERS = ["(you)", "[Active]", "[In a crux room]", "── ", "Participants:", "[Closing statement]"]


def finds(question: str, keywords: tuple[str, ...] | list[str]) -> bool:
    lowered = question.lower()
    return all(keyword.lower() in lowered for keyword in keywords)


def crux_matches(cards: list[dict], planted: list[dict]) -> tuple[list[str], list[str]]:
    """(planted questions some card found, card questions that found none)."""
    found = [crux["question"] for crux in planted if any(finds(card["question"], crux["keywords"]) for card in cards)]
    invented = [
        card["question"] for card in cards if not any(finds(card["question"], crux["keywords"]) for crux in planted)
    ]
    return found, invented


def duplicate_rooms(rooms: list[dict], planted: list[dict]) -> int:
    def key(room: dict) -> str:
        crux = next((c for c in planted if finds(room["question"], c["keywords"])), None)
        return crux["question"] if crux else room["question"].strip().lower()

    return len(rooms) - len({key(room) for room in rooms})


def page_leaks(page: str, forbidden: list[str]) -> dict[str, int]:
    lowered = page.replace("’", "'").lower()
    leaks = {phrase: lowered.count(phrase.lower()) for phrase in forbidden if phrase.strip()}
    leaks |= {marker: page.count(marker) for marker in FURNITURE_MARKERS}
    return {item: count for item, count in leaks.items() if count}


def debate_metrics(
    *,
    expect: str,
    regime: str,
    planted: list[dict],
    cards: list[dict],
    rooms: list[dict],
    entropy_by_round: list[float | None],
    leaks: dict[str, int],
    usage: dict,
) -> dict:
    found, invented = crux_matches(cards, planted)
    typed = [
        crux["question"]
        for crux in planted
        if any(finds(card["question"], crux["keywords"]) and card["type"] == crux["kind"] for card in cards)
    ]
    return {
        "regime": regime,
        "cruxes_found": found,
        "cruxes_invented": invented,
        "cruxes_typed_right": typed,
        "recall": round(len(found) / len(planted), 3) if planted else None,
        "precision": round((len(cards) - len(invented)) / len(cards), 3) if cards else None,
        "fake_consensus": expect == "disagree" and regime == "consensus",
        # What the regime said before it read the final stances: consensus whenever no card was an
        # open YES/NO split. Kept to show what the ledger check changes.
        "fake_consensus_by_cards_alone": expect == "disagree"
        and not any(not c["resolved"] and {"YES", "NO"} <= set(c["positions"].values()) for c in cards),
        "missed_consensus": expect == "agree" and regime != "consensus",
        "duplicate_rooms": duplicate_rooms(rooms, planted),
        "crux_compression": round(len([c for c in cards if c["resolved"]]) / len(cards), 3) if cards else None,
        "entropy_by_round": entropy_by_round,
        "page_leaks": leaks,
        **usage,
    }


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return round(mean(values), 3) if values else None


def suite_summary(debates: list[dict]) -> dict:
    """Across every debate of a suite (every scenario, every seed)."""
    planted = [(d["scenario"], q) for d in debates for q in d["planted"]]
    found = {(d["scenario"], q) for d in debates for q in d["metrics"]["cruxes_found"]}
    planted_total = sum(len(d["planted"]) for d in debates)
    found_total = sum(len(d["metrics"]["cruxes_found"]) for d in debates)
    cards_total = sum(len(d["cards"]) for d in debates)
    invented_total = sum(len(d["metrics"]["cruxes_invented"]) for d in debates)
    disagreeing = [d for d in debates if d["expect"] == "disagree"]
    agreeing = [d for d in debates if d["expect"] == "agree"]
    rounds = [[e for e in d["metrics"]["entropy_by_round"] if e is not None] for d in debates]
    first = [e[0] for e in rounds if e]  # the first round with a recorded side
    last = [e[-1] for e in rounds if e]
    return {
        "debates": len(debates),
        "failed": len([d for d in debates if d["status"] != "completed"]),
        "recall": round(found_total / planted_total, 3) if planted_total else None,
        "precision": round((cards_total - invented_total) / cards_total, 3) if cards_total else None,
        "planted_cruxes": len(set(planted)),
        "planted_cruxes_never_found": sorted(f"{s}: {q}" for s, q in set(planted) - found),
        "fake_consensus_rate": round(
            len([d for d in disagreeing if d["metrics"]["fake_consensus"]]) / len(disagreeing), 3
        )
        if disagreeing
        else None,
        "fake_consensus_rate_by_cards_alone": round(
            len([d for d in disagreeing if d["metrics"]["fake_consensus_by_cards_alone"]]) / len(disagreeing), 3
        )
        if disagreeing
        else None,
        "consensus_where_agreeing": round(
            len([d for d in agreeing if not d["metrics"]["missed_consensus"]]) / len(agreeing), 3
        )
        if agreeing
        else None,
        "duplicate_rooms": sum(d["metrics"]["duplicate_rooms"] for d in debates),
        "crux_compression": _mean(d["metrics"]["crux_compression"] for d in debates),
        "entropy_first_round": _mean(first),
        "entropy_last_round": _mean(last),
        "page_leaks": sum(sum(d["metrics"]["page_leaks"].values()) for d in debates),
        "model_calls_per_debate": _mean(d["metrics"]["model_calls"] for d in debates),
        "tokens_per_debate": _mean(d["metrics"]["input_tokens"] + d["metrics"]["output_tokens"] for d in debates),
        "cost_usd_per_debate": _mean(d["metrics"]["cost_usd"] for d in debates),
        "seconds_per_debate": _mean(d["seconds"] for d in debates),
    }
