"""The truth corpus's scripted reader: answers every structured call of a scenario's debate as a
careless but honest reader would (evaluation/corpus/README.md, "The reader"), one method per
schema title, so a new call is a new method.

It knows the topic, the participants and the script with its meaning, never ``expect`` or
``description``. It reads a call only as every scripted model does: its tag (``reading.call``:
role, phase, round, turns, items, room...), its schema (title and shape) and the prompt's two data
lines (transcript lines ``[turn N] Name: text``, item lines ``[ID] text``: devtools/prompt_reading.py).
A line is matched to the utterance it stands for (corpus_stage.Stage.match); the answer comes from
that utterance's ``meaning``, in the reader's own words (the gists), never Faultline's text copied
back. Two exceptions, both documented: the Analyst/Critic closings quote the Analyst's words that
do them (the ledger checks a closing against those words: consensus.py), and a question is named
by its text as the scenario gives it.

It is careless where the scenario says: an utterance's ``slip_name`` is how it names that
utterance's speaker, and ``slip_id`` makes it cite an id the app never gave, about that utterance.

Its bookkeeping is its own: the wording it gave each point or question when it created it
(``labels``), so the next call's item lines lead back to its labels, never by understanding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from evaluation.corpus.loader import Claim, Meaning, Question, Scenario, Utterance
from gateways.words import STOP_WORDS
from orchestration.evaluation.corpus_stage import Stage, sentence_keys, wording_key

YES, NO, NUANCED = "YES", "NO", "NUANCED"
GHOST_ID = 9999  # the id a careless reader cites that the app never gave
_VERDICT = {"accepts": "accepted", "amends": "accepted", "rejects": "contested", "unverifiable": "unverifiable"}
_PROPOSAL_REACTION = {"accepts": "supports", "rejects": "opposes", "amends": "amends"}
_POINT = re.compile(r"^\((?:[^()]*)\) (.*)$", re.S)  # an Analyst/Critic point's item text: "(status; notes) wording"
_DISPUTE = re.compile(r"^\((?:[^()]*)\) (.*)$", re.S)  # a map dispute's item text: "(type) question"
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


_fold = wording_key


def content_words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z0-9%$]+", (text or "").lower()) if w not in STOP_WORDS and len(w) > 2}


class CorpusReader:
    def __init__(self, scenario: Scenario, stage: Stage) -> None:
        self.s = scenario
        self.stage = stage
        self.names = list(scenario.names())
        self.decided: Question | None = next((q for q in scenario.questions if q.planned), None)
        self.labels: dict[str, str] = {}  # a wording it gave -> the scenario's label it stands for
        self.unanswered: dict[str, int] = {}  # schema titles it has no method for

    def answer(self, reading) -> dict:
        handler = getattr(self, reading.title, None)
        if handler is None:
            self.unanswered[reading.title] = self.unanswered.get(reading.title, 0) + 1
            return {}
        return handler(reading)

    # ── what a call shows ─────────────────────────────────────────────────────────────────────

    @staticmethod
    def channel(reading) -> str:
        call = reading.call
        if call.room is not None:
            return f"room {call.room}"
        if call.phase in ("assessment",) or call.phase.startswith("analyst_critic"):
            return "round"
        if call.phase.startswith("collaborate"):
            return "collaborate"
        return "main"

    def shown(self, reading, turns: Iterable[int] | None = None) -> list[tuple[int, str, Utterance | None]]:
        """(turn, name on the line, the utterance it stands for) of each transcript line shown."""
        wanted = set(turns) if turns is not None else None
        channel = self.channel(reading)
        lines = []
        for line in reading.said:
            if wanted is not None and line.turn not in wanted:
                continue
            lines.append(
                (line.turn, line.name, self.stage.match(line.name, line.text, channel=channel, turn=line.turn))
            )
        return lines

    def question_in(self, text: str) -> Question | None:
        """The scenario's question a text (a room's dispute, a map dispute) is about: the one whose
        text it holds, or that holds it."""
        folded = _fold(text)
        for question in self.s.questions:
            q = _fold(question.text)
            if q and (q in folded or (folded and folded in q)):
                return question
        return None

    def speaker_name(self, utterance: Utterance | None, name: str) -> str:
        """How the reader names an utterance's speaker: its slip where the scenario gives one."""
        slip = getattr(utterance.said, "slip_name", None) if utterance is not None else None
        return slip or self.stage.participant(name)

    @staticmethod
    def meaning(utterance: Utterance | None) -> Meaning:
        return utterance.said.meaning if utterance is not None else Meaning()

    # ── the scenario's labels ─────────────────────────────────────────────────────────────────

    def gists(self, label: str, upto: Utterance | None = None) -> list[str]:
        """Every wording the script gives ``label`` (a claim, a proposal), in play order, up to ``upto``."""
        found = []
        for utterance in self.stage.utterances:
            meaning = utterance.said.meaning
            for claim in meaning.claims:
                if label in (claim.id, claim.target) and claim.act != "withdraws":
                    found.append(claim.gist)
            if meaning.proposal is not None and meaning.proposal.id == label:
                found.append(meaning.proposal.gist)
            if upto is not None and utterance.where == upto.where:
                break
        return found

    def latest_gist(self, label: str, upto: Utterance | None = None) -> str:
        gists = self.gists(label, upto)
        return gists[-1] if gists else label

    def owner_of(self, label: str) -> str:
        for utterance in self.stage.utterances:
            meaning = utterance.said.meaning
            if any(claim.id == label for claim in meaning.claims) or (
                meaning.proposal is not None and meaning.proposal.id == label
            ):
                return utterance.speaker
        return ""

    def stances_until(self, last: Utterance | None) -> dict[str, dict[str, tuple]]:
        """Each participant's latest stance on each question, from what was said up to and with
        ``last``: {question id: {name: (side, condition, utterance)}}."""
        said = (self.stage.before(last) + [last]) if last is not None else [s.utterance for s in self.stage.spoken]
        latest: dict[str, dict[str, tuple]] = {}
        for utterance in said:
            if not utterance.where.startswith(("turn ", "room ")):
                continue
            for stance in utterance.said.meaning.stances:
                latest.setdefault(stance.question, {})[utterance.speaker] = (stance.side, stance.condition, utterance)
        return latest

    def app_turn(self, utterance: Utterance, fallback: int) -> int:
        spoken = self.stage.spoken_by(utterance.where)
        return spoken.turn if spoken is not None and spoken.turn is not None else fallback

    # ── planning ──────────────────────────────────────────────────────────────────────────────

    def AspectPlan(self, reading) -> dict:
        """The planned questions (what a planner reading only the topic would decide on); a topic
        no yes/no question fits gets the questions the speakers find."""
        questions = [q for q in self.s.questions if q.planned] or list(self.s.questions)
        aspects = [{"label": _short(q.text, 80), "description": _short(q.text, 300)} for q in questions[:4]]
        while len(aspects) < 2:
            aspects.append({"label": "What follows from it", "description": "What the answer means in practice."})
        # The question the verdict is about: the planned one, else none fits (a planner reading
        # only the topic proposes nothing the scenario does not plan).
        if self.decided is not None:
            return {"aspects": aspects, "question": self.decided.text, "no_yes_no_question_fits": False}
        return {"aspects": aspects, "question": None, "no_yes_no_question_fits": True}

    # ── Collaborate: the key decisions of the first answers, and the review of the revisions ─

    def KeyDecisions(self, reading) -> dict:
        """Each first answer's decisions (the claims its draft states), in the reader's words, by
        the turn of the line that makes them; the planned question, else none fits."""
        decisions = []
        for turn, _, utterance in self.shown(reading):
            for claim in self.meaning(utterance).claims:
                if claim.act == "states" and claim.id:
                    wording = _short(claim.gist, 240)
                    self.labels[_fold(wording)] = claim.id
                    decisions.append({"turn": turn, "decision": wording})
        if self.decided is not None:
            return {"decisions": decisions, "question": self.decided.text, "no_yes_no_question_fits": False}
        return {"decisions": decisions, "question": None, "no_yes_no_question_fits": True}

    def DecisionReview(self, reading) -> dict:
        """What each revised answer does with each key decision, by the id its item line gives:
        its own role keeps it unless the revision withdraws it; the other role's reaction to it
        (an amendment accepts it; no reaction is undecided). A line it cannot lead back to one of
        its own wordings is left out (the app then reads it undecided)."""
        revisions = [(turn, utterance) for turn, _, utterance in self.shown(reading) if utterance is not None]
        taken, answers = [], []
        for item in reading.items.values():
            wording = item.text.split(": ", 1)[-1]
            label = self.labels.get(_fold(wording))
            if label is None:
                continue
            owner = self.owner_of(label)
            kept, reaction = True, "undecided"
            for _, utterance in revisions:
                meaning = utterance.said.meaning
                if utterance.speaker == owner:
                    kept = kept and not any(c.act == "withdraws" and c.target == label for c in meaning.claims)
                    continue
                for said in meaning.reactions:
                    if said.target == label:
                        reaction = {"accepts": "accepts", "amends": "accepts", "rejects": "rejects"}.get(
                            said.reaction, "undecided"
                        )
            taken.append({"decision": item.id, "kept": kept, "reaction": reaction})
        for turn, utterance in revisions:
            stance = next(
                (
                    s
                    for s in utterance.said.meaning.stances
                    if self.decided is not None and s.question == self.decided.id
                ),
                None,
            )
            answers.append({"turn": turn, "side": stance.side if stance is not None else None})
        return {"decisions": taken, "answers": answers[:2]}

    # ── a message's position update, and a digest of several ──────────────────────────────────

    def position_update(
        self,
        utterance: Utterance | None,
        name: str,
        proposals: dict[str, str] | None = None,
        made_here: dict[str, int] | None = None,
    ) -> dict:
        """``proposals``: the open proposals the call shows, by id (item lines ``[X1] Name: text``);
        ``made_here``: the scenario's proposals made in the messages the call asks about, by turn."""
        meaning = self.meaning(utterance)
        speaker = self.stage.participant(name)
        update: dict = {"speaker": self.speaker_name(utterance, name), "evidence": list(meaning.evidence)[:4]}
        if not meaning.usable or utterance is None:
            return update
        if self.decided is not None:
            stance = next((s for s in meaning.stances if s.question == self.decided.id), None)
            if stance is not None:
                update["topic_side"] = stance.side
                if stance.side == NUANCED and stance.condition:
                    # What it hangs on, in the reader's words (the condition's gist).
                    update["topic_condition"] = next(
                        (_short(c.gist, 240) for c in self.s.conditions if c.id == stance.condition), None
                    )
                update["overall_stance"] = _stance_words(stance, self.s)
                earlier = self._side_before(utterance, self.decided.id)
                if earlier and earlier != stance.side:
                    update["shift"] = f"moved from {earlier.lower()} to {stance.side.lower()}"
        for toward in meaning.toward[:1]:
            on = self._on(toward.on, utterance)
            key = "new_agreement" if toward.relation == "agrees" else "new_disagreement"
            update[key] = {"with": toward.name, "on": on}
            if toward.relation == "disagrees":
                update[key]["intensity"] = "strong"
        accepted = [r for r in meaning.reactions if r.reaction == "accepts" and self.owner_of(r.target) != speaker]
        if accepted:
            update["concession"] = accepted[0].gist or self.latest_gist(accepted[0].target, utterance)
        if meaning.proposal is not None:
            update["proposal"] = _short(meaning.proposal.gist, 240)
        for reaction in meaning.reactions:
            kind = _PROPOSAL_REACTION.get(reaction.reaction)
            if kind and self._is_proposal(reaction.target):
                shown = self._proposal_shown(reaction.target, proposals or {}, made_here or {}, utterance)
                if shown is None:
                    continue  # not among the open proposals shown: nothing to cite
                update["proposal_reaction"] = {
                    "proposal": shown,
                    "reaction": kind,
                    "note": _short(reaction.gist or self.latest_gist(reaction.target, utterance), 160),
                }
                break
        update["challenges_raised"] = [{"to": c.to, "challenge": _short(c.gist, 240)} for c in meaning.challenges[:3]]
        update["importance"] = 7 if (meaning.evidence or accepted or "shift" in update) else 5
        return update

    def _side_before(self, utterance: Utterance, question: str) -> str | None:
        side = None
        for earlier in self.stage.before(utterance):
            if earlier.speaker != utterance.speaker:
                continue
            for stance in earlier.said.meaning.stances:
                if stance.question == question:
                    side = stance.side
        return side

    def _on(self, label: str, utterance: Utterance) -> str:
        question = next((q for q in self.s.questions if q.id == label), None)
        return _short(question.text if question else self.latest_gist(label, utterance), 200)

    def _proposal_shown(
        self, label: str, proposals: dict[str, str], made_here: dict[str, int], utterance: Utterance
    ) -> str | None:
        """How the call lets the reader cite the scenario's proposal ``label``: the [turn N] of the
        message of this digest that made it; else the id of the open proposal of its proposer whose
        text is one of its wordings, else of their latest one shown."""
        if label in made_here:
            return f"turn {made_here[label]}"
        owner = self.stage.participant(self.owner_of(label))
        theirs = [key for key, text in proposals.items() if self.stage.participant(text.partition(": ")[0]) == owner]
        wordings = {_short(gist, 240) for gist in self.gists(label, utterance)} | set(self.gists(label, utterance))
        worded = [key for key in theirs if proposals[key].partition(": ")[2] in wordings]
        return (worded or theirs or [None])[-1]

    def _is_proposal(self, label: str) -> bool:
        return any(
            u.said.meaning.proposal is not None and u.said.meaning.proposal.id == label for u in self.stage.utterances
        )

    def _digest(self, reading) -> list[dict]:
        proposals = {key: item.text for key, item in reading.items.items() if re.fullmatch(r"X\d+", key)}
        asked = self.shown(reading, reading.call.turns)
        made_here = {
            u.said.meaning.proposal.id: turn for turn, _, u in asked if u is not None and u.said.meaning.proposal
        }
        updates = []
        for turn, name, utterance in asked:
            updates.append({**self.position_update(utterance, name, proposals, made_here), "turn": turn})
        return updates

    def LedgerDigest(self, reading) -> dict:
        return {"updates": self._digest(reading)}

    def WindowDigest(self, reading) -> dict:
        return {"updates": self._digest(reading), **self.DisagreementScan(reading)}

    # ── the disagreement scan ─────────────────────────────────────────────────────────────────

    def DisagreementScan(self, reading) -> dict:
        """A dispute for each pair whose latest stances on a question are YES and NO, and for each
        "disagrees" on a claim; an earlier one named by the id the app shows for it."""
        shown = [(turn, name, u) for turn, name, u in self.shown(reading) if u is not None]
        known = {key: reading.items[key].text for key in reading.call.items if key in reading.items}
        found: list[dict] = []

        def known_id(text: str) -> int | None:
            for key, item in known.items():
                if _fold(text) and _fold(text) in _fold(item) and key.isdigit():
                    return int(key)
            return None

        last = max(shown, key=lambda line: self.stage.order.get(line[2].where, -1))[2] if shown else None
        for question in self.s.questions:
            sides = self.stances_until(last).get(question.id, {})
            yes = [name for name, (side, _, _) in sides.items() if side == YES]
            no = [name for name, (side, _, _) in sides.items() if side == NO]
            for a in yes:
                for b in no:
                    found.append(
                        {
                            "persona_a": self.speaker_name(sides[a][2], a),
                            "persona_b": self.speaker_name(sides[b][2], b),
                            "dispute": question.text,
                            "known_id": known_id(question.text),
                            "confidence": 0.9,
                        }
                    )
        for _, name, utterance in shown:
            for toward in utterance.said.meaning.toward:
                if toward.relation != "disagrees" or any(q.id == toward.on for q in self.s.questions):
                    continue
                gist = self.latest_gist(toward.on, utterance)
                found.append(
                    {
                        "persona_a": self.speaker_name(utterance, name),
                        "persona_b": toward.name,
                        "dispute": _short(gist, 200),
                        "known_id": known_id(gist),
                        "confidence": 0.8,
                    }
                )
        if found and any(u.said.slip_id for _, _, u in shown):
            found[0] = {**found[0], "known_id": GHOST_ID}
        unique, seen = [], set()
        for dispute in found:
            key = (frozenset((dispute["persona_a"], dispute["persona_b"])), dispute["dispute"])
            if key not in seen:
                seen.add(key)
                unique.append(dispute)
        return {"disagreements": unique[:4]}

    # ── a crux room ───────────────────────────────────────────────────────────────────────────

    def _room(self, reading) -> tuple[Question | None, list[str]]:
        """The room's question (its dispute's item line) and its two participants."""
        item = reading.items.get(reading.call.items[0]) if reading.call.items else None
        question = self.question_in(item.text) if item is not None else None
        two = [self.stage.personas.get(pid) or reading.name_of(pid) for pid in reading.call.participants]
        two = [name for name in two if name]
        if len(two) < 2:
            two = list(dict.fromkeys(self.stage.participant(line.name) for line in reading.said))
        if len(two) < 2 and question is not None:
            room = next((r for r in self.s.rooms if r.on == question.id), None)
            two = list(room.between) if room else two
        return question, two[:2]

    def _room_sides(self, reading, question: Question | None, two: list[str]) -> dict[str, tuple]:
        shown = [u for _, _, u in self.shown(reading) if u is not None]
        last = max(shown, key=lambda u: self.stage.order.get(u.where, -1)) if shown else None
        sides = self.stances_until(last).get(question.id, {}) if question is not None else {}
        return {name: sides.get(name, (None, None, None)) for name in two}

    def CruxExitCheck(self, reading) -> dict:
        question, two = self._room(reading)
        room = next((r for r in self.s.rooms if question is not None and r.on == question.id), None)
        said = self.stage.said_keys()
        if room is None:  # a room the scenario has none for: both pass, nothing more will surface
            surfaced = True
        else:
            surfaced = all(f"room {room.on} turn {n}" in said for n in range(1, len(room.turns) + 1))
        return {"surfaced": surfaced, "crux": _short(question.text, 300) if surfaced and question else ""}

    def CruxCardDraft(self, reading) -> dict:
        question, two = self._room(reading)
        item = reading.items.get(reading.call.items[0]) if reading.call.items else None
        sides = self._room_sides(reading, question, two)
        positions = []
        for name in two:
            side, condition, utterance = sides[name]
            positions.append(
                {
                    "persona": self.speaker_name(utterance, name),
                    "position": side or NUANCED,
                    "reasoning": _stance_reason(side, condition, self.s),
                    "falsifier": "Evidence on the question they have not seen yet.",
                }
            )
        (a, ca, _), (b, cb, _) = (sides[two[0]], sides[two[1]]) if len(two) == 2 else ((None, None, None),) * 2
        resolved = a is not None and a == b and (a != NUANCED or ca == cb)
        text = question.text if question is not None else (item.text if item is not None else self.s.topic)
        return {
            "question": _short(text, 200),
            "positions": positions,
            "disagreement_type": "claim",
            "diagnosis": "They answer the question differently." if not resolved else "They ended on the same answer.",
            "resolved": resolved,
            "resolution": "Both now give the same answer." if resolved else "",
        }

    # ── the blackboard's notes ────────────────────────────────────────────────────────────────

    def RollingSummaryDraft(self, reading) -> dict:
        return {"summary": "The participants set out and defended their answers to the question."}

    def RoundRecordDraft(self, reading) -> dict:
        takes, seen = [], set()
        for _, name, utterance in reversed(self.shown(reading)):
            speaker = self.stage.participant(name)
            if speaker in seen or utterance is None:
                continue
            seen.add(speaker)
            stance = next(iter(utterance.said.meaning.stances), None)
            takes.append(
                {
                    "persona": self.speaker_name(utterance, name),
                    "position": _stance_words(stance, self.s) if stance else "kept their view",
                    "key_argument": _short(next((c.gist for c in utterance.said.meaning.claims), "their case"), 300),
                    "evidence_cited": list(utterance.said.meaning.evidence)[:4],
                    "engaged": "",
                }
            )
        return {"takes": takes[:6], "summary": "Each restated where they stand.", "new_disagreements": [], "shifts": []}

    def ReflectionDraft(self, reading) -> dict:
        return {"reflections": []}

    def EvidenceLedger(self, reading) -> dict:
        entries = []
        for _, name, utterance in self.shown(reading):
            if utterance is None:
                continue
            stance = next(iter(utterance.said.meaning.stances), None)
            for evidence in utterance.said.meaning.evidence:
                entries.append(
                    {
                        "persona": self.speaker_name(utterance, name),
                        "evidence": _short(evidence, 300),
                        "used_for": _stance_words(stance, self.s) if stance else "their case",
                    }
                )
        return {"entries": entries[:30]}

    # ── the graph mode's crystallizer ─────────────────────────────────────────────────────────

    def Crystallization(self, reading) -> dict:
        """Each new turn's move; a dispute for a YES-vs-NO pair on a question; a stance for a
        persona newly on a side; a concession when a persona's side turns or it accepts a claim;
        reasons from claims; reframes and crux proposals as said."""
        call = reading.call
        lines = [(turn, name, u) for turn, name, u in self.shown(reading) if u is not None]
        new = [(turn, name, u) for turn, name, u in lines if turn in call.turns]
        out: dict = {
            "moves": [{"turn": turn, "move": u.said.meaning.move or "CLAIM"} for turn, _, u in new],
            "new_disputes": [],
            "new_stances": [],
            "new_reasons": [],
            "concessions": [],
            "reframes": [],
            "crux_proposals": [],
        }
        people = set(call.participants)
        disputes = {
            key: _DISPUTE.match(item.text)[1] if _DISPUTE.match(item.text) else item.text
            for key, item in reading.items.items()
            if item.depth == 0 and key not in people
        }
        stances = {
            key: (item.parent, item.holder, item.held.split(" ", 1)[0])
            for key, item in reading.items.items()
            if item.depth == 1
        }
        # A reason's item: "Holder: supports S1 — its text (label...)": its text, folded.
        reasons = {
            key: _fold(item.held.split(" — ", 1)[-1].rsplit(" (", 1)[0])
            for key, item in reading.items.items()
            if item.depth == 2
        }
        turn_of = {u.where: turn for turn, _, u in lines}
        last = max((u for _, _, u in lines), key=lambda u: self.stage.order.get(u.where, -1), default=None)
        latest = self.stances_until(last)
        by_question: dict[str, str] = {}
        for question in self.s.questions:
            dispute = next((key for key, text in disputes.items() if self.question_in(text) == question), None)
            if dispute is not None:
                by_question[question.id] = dispute
            sides = {n: v for n, v in latest.get(question.id, {}).items() if v[0] in (YES, NO)}
            if dispute is None:
                if {v[0] for v in sides.values()} == {YES, NO}:
                    out["new_disputes"].append(
                        {
                            "question": _short(question.text, 200),
                            "disagreement_type": "claim",
                            "stances": [self._stance(n, v, turn_of) for n, v in sides.items()],
                        }
                    )
                continue
            held = {holder: (sid, side) for sid, (parent, holder, side) in stances.items() if parent == dispute}
            for name, value in latest.get(question.id, {}).items():
                shown_as = self.speaker_name(value[2], name)
                mine = held.get(shown_as) or held.get(name)
                if mine is None and value[0] in (YES, NO):
                    out["new_stances"].append({"dispute_id": dispute, **self._stance(name, value, turn_of)})
                elif mine is not None and mine[1] != value[0]:
                    out["concessions"].append(
                        {
                            "persona": shown_as,
                            "target_id": mine[0],
                            "what": "their earlier answer",
                            "turn": turn_of.get(value[2].where, self.app_turn(value[2], 0)),
                        }
                    )
        for turn, name, utterance in new:
            meaning = utterance.said.meaning
            who = self.speaker_name(utterance, name)
            own = next((sid for sid, (_, holder, _) in stances.items() if holder in (who, name)), None)
            for claim in meaning.claims:
                if (
                    own is not None
                    and claim.act in ("states", "restates", "refines")
                    and _fold(claim.gist) not in reasons.values()
                ):
                    out["new_reasons"].append(
                        {
                            "stance_id": own,
                            "persona": who,
                            "relation": "supports",
                            "text": _short(claim.gist, 300),
                            "turn": turn,
                        }  # fmt: skip
                    )
            for reaction in meaning.reactions:
                if reaction.reaction != "accepts":
                    continue
                gists = {_fold(g) for g in self.gists(reaction.target)}
                target = next((rid for rid, text in reasons.items() if text in gists), None)
                if target is not None:
                    out["concessions"].append(
                        {"persona": who, "target_id": target, "what": "their point", "turn": turn}
                    )
            if meaning.reframe and (
                dispute := by_question.get(self.decided.id if self.decided else "", next(iter(disputes), None))
            ):
                question = next(q for q in self.s.questions if q.id == meaning.reframe)
                out["reframes"].append(
                    {"dispute_id": dispute, "question": _short(question.text, 200), "persona": who, "turn": turn}
                )
            if meaning.crux and meaning.crux in by_question:
                out["crux_proposals"].append({"dispute_id": by_question[meaning.crux], "persona": who, "turn": turn})
            if utterance.said.slip_id:
                out["concessions"].append({"persona": who, "target_id": "S99", "what": "a point", "turn": turn})
        return out

    def _stance(self, name: str, value: tuple, turn_of: dict) -> dict:
        side, condition, utterance = value
        claim = next((c.gist for c in utterance.said.meaning.claims), None)
        return {
            "persona": self.speaker_name(utterance, name),
            "side": side,
            "claim": _short(claim or _stance_reason(side, condition, self.s), 300),
            "turn": turn_of.get(utterance.where, self.app_turn(utterance, 0)),
            "assumptions": [],
        }

    # ── the Analyst/Critic assessment ─────────────────────────────────────────────────────────

    def AgreementAssessment(self, reading) -> dict:
        """Shown the open points by id, it maps each id to its own label by the wording it gave the
        point when it created it, then answers from the round's meaning: the Analyst's acts, the
        Critic's reactions; any other open point is held. An unusable Critic turn: an empty answer.
        A code with no ids yet gets the agreed, disagreed and unverifiable lists."""
        answer_turn, section_turn = (list(reading.call.turns) + [None, None])[:2]
        lines = {turn: (name, u) for turn, name, u in self.shown(reading)}
        analyst = lines.get(answer_turn, (None, None))[1]
        critic = lines.get(section_turn, (None, None))[1]
        if answer_turn is None:  # a code whose calls carry no turns: the round's lines by their names
            analyst = next(
                (u for _, n, u in self.shown(reading) if self.stage.participant(n) == self._seat("analyst")), None
            )
            critic = next(
                (u for _, n, u in self.shown(reading) if self.stage.participant(n) == self._seat("critic")), None
            )
        by_reference = "points" in _properties(reading)
        if critic is None or not critic.said.meaning.usable:
            empty = (
                {"points": [], "new_points": []}
                if by_reference
                else {"agreed": [], "disagreed": [], "unverifiable": []}
            )
            return {**empty, "overall": "weak"}
        verdicts = {r.target: r for r in critic.said.meaning.reactions}
        overall = _overall([r.reaction for r in critic.said.meaning.reactions])
        if not by_reference:
            return self._assessment_lists(critic, verdicts, overall)
        shown_text = next((line.text for line in reading.said if line.turn == answer_turn), "")
        open_ids = {}
        for key, item in reading.items.items():
            match = _POINT.match(item.text)
            if match:
                open_ids[key] = self.labels.get(_fold(match[1]))
        id_of = {label: key for key, label in open_ids.items() if label}
        points, new, named = [], [], set()
        claims = analyst.said.meaning.claims if analyst is not None else ()
        for claim in claims:
            if claim.act == "states":
                new.append({"text": claim.gist, "status": self._verdict(verdicts.get(claim.id)),
                            **self._reason(verdicts.get(claim.id))})  # fmt: skip
                self.labels[_fold(claim.gist)] = claim.id
            elif claim.act in ("withdraws", "refines", "negates") and claim.target in id_of:
                key = id_of[claim.target]
                named.add(key)
                entry = {"id": key, "status": {"withdraws": "withdrawn", "refines": "refined", "negates": "negated"}[claim.act],
                         "quote": self._quote(shown_text, claim), "reason": _short(claim.gist, 600)}  # fmt: skip
                if claim.act != "withdraws":
                    entry.update(new_wording=claim.gist, verdict=self._verdict(verdicts.get(claim.id)))
                    self.labels[_fold(claim.gist)] = claim.id
                points.append(entry)
        for label, reaction in verdicts.items():
            key = id_of.get(label)
            if key is None or key in named or reaction.reaction not in _VERDICT:
                continue
            named.add(key)
            points.append({"id": key, "status": _VERDICT[reaction.reaction], **self._reason(reaction)})
        points += [{"id": key, "status": "held"} for key in open_ids if key not in named]
        if critic.said.slip_id or (analyst is not None and analyst.said.slip_id):
            points.append({"id": f"P{len(open_ids) + 7}", "status": "accepted", "reason": "as agreed"})
        return {"points": points, "new_points": new, "overall": overall}

    def _seat(self, role: str) -> str:
        return self.s.seat(role).name

    @staticmethod
    def _verdict(reaction) -> str:
        return _VERDICT.get(reaction.reaction, "unverifiable") if reaction is not None else "unverifiable"

    @staticmethod
    def _reason(reaction) -> dict:
        return {"reason": _short(reaction.gist, 600)} if reaction is not None and reaction.gist else {}

    def _quote(self, shown: str, claim: Claim) -> str:
        """The Analyst's sentence of this round that does ``claim`` (a withdrawal, a narrowing, a
        negation): the one sharing most words with what it does, then with the point it does it
        to; the earliest on a tie. A quotation, so copied as shown."""
        act, target = content_words(claim.gist), set().union(*(content_words(g) for g in self.gists(claim.target)))
        best, best_score = "", (0, 0)
        for sentence in _SENTENCE.split(shown):
            sentence = re.sub(r"^\s*(?:\d{1,2}[.)]|[-*•])\s+", "", sentence).strip()
            if len(sentence.split()) < 3:
                continue
            words = content_words(sentence)
            score = (len(words & act), len(words & target))
            if score > best_score:
                best, best_score = sentence, score
        return best

    def _assessment_lists(self, critic: Utterance, verdicts: dict, overall: str) -> dict:
        """The lists a code without point ids asks for, each point in the reader's latest words."""
        lists: dict[str, list] = {"agreed": [], "disagreed": [], "unverifiable": []}
        field = {"accepted": ("agreed", "reasoning"), "contested": ("disagreed", "counter_argument"),
                 "unverifiable": ("unverifiable", "reason")}  # fmt: skip
        for label, reaction in verdicts.items():
            status = _VERDICT.get(reaction.reaction)
            if status is None:
                continue
            key, why = field[status]
            lists[key].append({"point": _short(self.latest_gist(label, critic), 400), why: _short(reaction.gist, 400)})
            self.labels[_fold(self.latest_gist(label, critic))] = label
        return {**lists, "overall": overall}


# ── small helpers ─────────────────────────────────────────────────────────────────────────────


def _properties(reading) -> dict:
    output = (reading.body.get("output_config") or {}).get("format") or {}
    return (output.get("schema") or {}).get("properties") or {}


def _overall(reactions: list[str]) -> str:
    if reactions and all(r in ("accepts", "amends") for r in reactions):
        return "strong"
    return "moderate" if any(r in ("accepts", "amends") for r in reactions) else "weak"


def _short(text: str, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _stance_words(stance, scenario: Scenario) -> str:
    if stance is None:
        return "has not answered"
    if stance.side == NUANCED:
        condition = next((c.gist for c in scenario.conditions if c.id == stance.condition), "")
        return f"conditionally: only if {condition}" if condition else "conditionally"
    return {YES: "answers yes", NO: "answers no"}[stance.side]


def _stance_reason(side, condition, scenario: Scenario) -> str:
    if side is None:
        return "Not stated in the room."
    if side == NUANCED:
        gist = next((c.gist for c in scenario.conditions if c.id == condition), "")
        return f"Only if {gist}." if gist else "Only under conditions."
    return {YES: "Answers yes.", NO: "Answers no."}[side]


__all__ = ["CorpusReader", "content_words", "sentence_keys"]
