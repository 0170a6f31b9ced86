"""The dispute-centric graph: the validation of the mutations a crystallizer may propose (the
nodes and mutations themselves are in nodes.py), and the Dung framework the graph stands for.
Pure Python.

Rules every mutation is checked against before it applies (a rejected one changes nothing):
- a dispute is a binary question and is created with at least one YES and one NO stance;
- a stance belongs to an existing dispute, and a persona holds at most one stance per dispute
  (changing sides is a concession first, then a new stance);
- a reason belongs to an existing stance; nobody supports the side they oppose or attacks their own;
- everyone named is a participant, and every stance, reason and concession cites a turn that
  persona actually spoke (what the map records was said, by whom).

Concessions shrink the graph: giving up a stance removes it with its reasons, and a dispute left
without a YES or without a NO dissolves (recorded as settled). Withdrawing your own reason removes
it. Granting an opponent's reason keeps it but stops you contesting it.

The framework: stances and reasons are arguments; every argument sits on one side of its dispute
(a supporting reason on its stance's side, an attacking reason on the other). Opposite stances
attack each other; an attacking reason attacks its target; every stance attacks the reasons of the
other side that its holder has not granted. All attacks run between the two sides of one dispute,
so the framework is bipartite: no odd cycles, and every undecided argument is in some camp.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from argumentation import ArgumentationFramework

from .nodes import (
    ATTACKS,
    DISAGREEMENT_TYPES,
    NO,
    SUPPORTS,
    YES,
    AddDispute,
    AddReason,
    AddStance,
    Assumption,
    BatchResult,
    Concede,
    Dispute,
    Mutation,
    ProposeCrux,
    Reason,
    Reframe,
    Rejected,
    Stance,
    StanceDraft,
    Transcript,
    _clean,
    _key,
    in_turn_order,
    other_side,
)

MAX_OPEN_DISPUTES = 8  # keeps the map sparse (and the camps enumerable: 2^8 at worst)
MAX_REASONS_PER_STANCE = 4
MAX_BATCH = 16
RECENT_ATTACKS = 8
QUESTION_CHARS, CLAIM_CHARS, NOTE_CHARS = 200, 300, 200


# ── The graph ─────────────────────────────────────────────────────────────────────────────────


class DisputeGraph:
    def __init__(self) -> None:
        self.disputes: dict[str, Dispute] = {}
        self.stances: dict[str, Stance] = {}
        self.reasons: dict[str, Reason] = {}
        self.next_id = {"D": 1, "S": 1, "R": 1}
        # History the current graph no longer shows: disputes dissolved by concession, every
        # concession with its effect, the latest attacks drawn.
        self.settled: list[dict] = []
        self.concessions: list[dict] = []
        self.recent_attacks: list[dict] = []

    def __len__(self) -> int:
        return len(self.stances) + len(self.reasons)

    # ── reading ───────────────────────────────────────────────────────────────────────────────

    def stances_of(self, dispute_id: str) -> list[Stance]:
        return [s for s in self.stances.values() if s.dispute == dispute_id]

    def reasons_of(self, stance_id: str) -> list[Reason]:
        return [r for r in self.reasons.values() if r.stance == stance_id]

    def dispute_of(self, argument_id: str) -> Dispute:
        stance = self.stances.get(argument_id) or self.stances[self.reasons[argument_id].stance]
        return self.disputes[stance.dispute]

    def side_of(self, argument_id: str) -> str:
        if argument_id in self.stances:
            return self.stances[argument_id].side
        reason = self.reasons[argument_id]
        side = self.stances[reason.stance].side
        return side if reason.relation == SUPPORTS else other_side(side)

    def holder_of(self, argument_id: str) -> str:
        node = self.stances.get(argument_id) or self.reasons[argument_id]
        return node.holder

    def text_of(self, node_id: str) -> str:
        if node_id in self.disputes:
            return self.disputes[node_id].question
        if node_id in self.stances:
            return self.stances[node_id].claim
        return self.reasons[node_id].text

    def stance_held(self, persona: str, dispute_id: str) -> Stance | None:
        return next((s for s in self.stances_of(dispute_id) if s.holder == persona), None)

    def arguments(self) -> list[str]:
        return [*self.stances, *self.reasons]

    def attacks(self) -> list[tuple[str, str]]:
        edges: list[tuple[str, str]] = []
        for dispute_id in self.disputes:
            stances = self.stances_of(dispute_id)
            edges += [(s.id, t.id) for s in stances for t in stances if s.side != t.side]
        for reason in self.reasons.values():
            target = self.stances[reason.stance]
            if reason.relation == ATTACKS:
                edges.append((reason.id, target.id))
            side = self.side_of(reason.id)
            edges += [
                (s.id, reason.id)
                for s in self.stances_of(target.dispute)
                if s.side != side and s.holder not in reason.granted_by
            ]
        return edges

    def framework(self) -> ArgumentationFramework:
        return ArgumentationFramework(self.arguments(), self.attacks())

    def labels(self) -> dict[str, str]:
        return {argument: label.value for argument, label in self.framework().grounded_labelling().items()}

    # ── validation ────────────────────────────────────────────────────────────────────────────

    def _node_id(self, raw: str, kinds: str) -> str:
        node_id = str(raw or "").strip().upper()
        tables = {"D": self.disputes, "S": self.stances, "R": self.reasons}
        if node_id[:1] in kinds and node_id in tables[node_id[:1]]:
            return node_id
        wanted = {"D": "dispute", "S": "stance", "R": "reason"}
        raise Rejected(f"no {' or '.join(wanted[k] for k in kinds)} {raw!r} in the map")

    def _stance_draft(self, draft: StanceDraft, transcript: Transcript) -> StanceDraft:
        persona = transcript.persona(draft.persona)
        side = str(draft.side).upper()
        if side not in (YES, NO):
            raise Rejected(f"a stance is YES or NO, not {draft.side!r}")
        claim = _clean(draft.claim, CLAIM_CHARS)
        if not claim:
            raise Rejected(f"{persona}'s stance says nothing")
        transcript.check_turn(persona, draft.turn)
        return StanceDraft(
            persona=persona, side=side, claim=claim, turn=draft.turn, assumptions=_assumptions(draft.assumptions)
        )

    def admit(self, mutation: Mutation, transcript: Transcript) -> Mutation:
        """The mutation with names and ids made exact, or Rejected with the rule it breaks."""
        match mutation:
            case AddDispute():
                question = _clean(mutation.question, QUESTION_CHARS)
                if not question:
                    raise Rejected("a dispute needs a question")
                if any(_key(d.question) == _key(question) for d in self.disputes.values()):
                    raise Rejected("that dispute is already in the map")
                open_disputes = len(self.disputes)
                if open_disputes >= MAX_OPEN_DISPUTES:
                    raise Rejected(f"the map already holds {open_disputes} disputes")
                stances = tuple(self._stance_draft(s, transcript) for s in mutation.stances)
                holders = [s.persona for s in stances]
                if len(set(holders)) != len(holders):
                    raise Rejected("a persona holds one stance per dispute")
                sides = {s.side for s in stances}
                if sides != {YES, NO}:
                    raise Rejected("a dispute needs at least one YES and one NO stance")
                kind = mutation.disagreement_type if mutation.disagreement_type in DISAGREEMENT_TYPES else "claim"
                return AddDispute(question=question, stances=stances, disagreement_type=kind)
            case AddStance():
                dispute_id = self._node_id(mutation.dispute, "D")
                draft = self._stance_draft(mutation.stance, transcript)
                if held := self.stance_held(draft.persona, dispute_id):
                    if held.side == draft.side:
                        raise Rejected(f"{draft.persona} already says {held.side} on {dispute_id}")
                    raise Rejected(
                        f"{draft.persona} says {held.side} on {dispute_id}; changing sides is a concession first"
                    )
                return AddStance(dispute=dispute_id, stance=draft)
            case AddReason():
                stance_id = self._node_id(mutation.stance, "S")
                stance = self.stances[stance_id]
                persona = transcript.persona(mutation.persona)
                relation = str(mutation.relation).lower()
                if relation not in (SUPPORTS, ATTACKS):
                    raise Rejected(f"a reason supports or attacks a stance, not {mutation.relation!r}")
                text = _clean(mutation.text, CLAIM_CHARS)
                if not text:
                    raise Rejected("a reason needs some text")
                transcript.check_turn(persona, mutation.turn)
                held = self.stance_held(persona, stance.dispute)
                side = stance.side if relation == SUPPORTS else other_side(stance.side)
                if held is not None and held.side != side:
                    raise Rejected(
                        f"{persona} says {held.side} on {stance.dispute}, so cannot {relation[:-1]} {stance_id}"
                    )
                if len(self.reasons_of(stance_id)) >= MAX_REASONS_PER_STANCE:
                    raise Rejected(f"{stance_id} already has {MAX_REASONS_PER_STANCE} reasons")
                if any(r.relation == relation and _key(r.text) == _key(text) for r in self.reasons_of(stance_id)):
                    raise Rejected("that reason is already in the map")
                return AddReason(
                    stance=stance_id,
                    persona=persona,
                    relation=relation,
                    text=text,
                    turn=mutation.turn,
                    assumptions=_assumptions(mutation.assumptions),
                )
            case Concede():
                persona = transcript.persona(mutation.persona)
                target = self._node_id(mutation.target, "SR")
                transcript.check_turn(persona, mutation.turn)
                dispute = self.dispute_of(target)
                held = self.stance_held(persona, dispute.id)
                if target in self.reasons and self.reasons[target].holder != persona:
                    if held is None:
                        raise Rejected(f"{persona} holds no stance on {dispute.id}, so has nothing to concede")
                    if held.side == self.side_of(target):
                        raise Rejected(f"{target} is on {persona}'s own side")
                    if persona in self.reasons[target].granted_by:
                        raise Rejected(f"{persona} already granted {target}")
                elif target in self.stances:
                    if held is None:
                        raise Rejected(f"{persona} holds no stance on {dispute.id} to give up")
                    if held.id != target and held.side == self.stances[target].side:
                        raise Rejected(f"{target} is on {persona}'s own side")
                return Concede(
                    persona=persona, target=target, turn=mutation.turn, what=_clean(mutation.what, NOTE_CHARS)
                )
            case Reframe():
                dispute_id = self._node_id(mutation.dispute, "D")
                question = _clean(mutation.question, QUESTION_CHARS)
                if not question:
                    raise Rejected("a reframed dispute needs a question")
                if any(_key(d.question) == _key(question) for d in self.disputes.values()):
                    raise Rejected("that question is already in the map")
                persona = transcript.persona(mutation.persona) if mutation.persona else ""
                if persona:
                    transcript.check_turn(persona, mutation.turn)
                return Reframe(dispute=dispute_id, question=question, persona=persona, turn=mutation.turn)
            case ProposeCrux():
                dispute_id = self._node_id(mutation.dispute, "D")
                persona = transcript.persona(mutation.persona)
                transcript.check_turn(persona, mutation.turn)
                if persona in self.disputes[dispute_id].crux_proposed_by:
                    raise Rejected(f"{persona} already proposed {dispute_id} as the crux")
                return ProposeCrux(dispute=dispute_id, persona=persona, turn=mutation.turn)
        raise Rejected(f"unknown mutation {mutation!r}")

    # ── applying ──────────────────────────────────────────────────────────────────────────────

    def _new_id(self, kind: str) -> str:
        node_id = f"{kind}{self.next_id[kind]}"
        self.next_id[kind] += 1
        return node_id

    def _add_stance(self, dispute_id: str, draft: StanceDraft, round_no: int) -> Stance:
        stance = Stance(
            id=self._new_id("S"),
            dispute=dispute_id,
            holder=draft.persona,
            side=draft.side,
            claim=draft.claim,
            turn=draft.turn,
            round=round_no,
            assumptions=list(draft.assumptions),
        )
        self.stances[stance.id] = stance
        return stance

    def apply(self, mutation: Mutation, round_no: int = 0) -> dict:
        """Apply an admitted mutation; returns what happened, for the log and the page."""
        match mutation:
            case AddDispute():
                dispute = Dispute(
                    id=self._new_id("D"),
                    question=mutation.question,
                    turn=mutation.turn,
                    disagreement_type=mutation.disagreement_type,
                    round=round_no,
                )
                self.disputes[dispute.id] = dispute
                stances = [self._add_stance(dispute.id, draft, round_no) for draft in mutation.stances]
                sides = "; ".join(f"{s.side}: {s.holder}" for s in stances)
                return _effect(mutation, f"{dispute.id} opened: {dispute.question} ({sides})", persona="")
            case AddStance():
                stance = self._add_stance(mutation.dispute, mutation.stance, round_no)
                return _effect(
                    mutation,
                    f"{stance.id}: {stance.holder} says {stance.side} on {stance.dispute}",
                    persona=stance.holder,
                )
            case AddReason():
                reason = Reason(
                    id=self._new_id("R"),
                    stance=mutation.stance,
                    holder=mutation.persona,
                    relation=mutation.relation,
                    text=mutation.text,
                    turn=mutation.turn,
                    round=round_no,
                    assumptions=list(mutation.assumptions),
                )
                self.reasons[reason.id] = reason
                return _effect(
                    mutation, f"{reason.id}: {reason.holder} {reason.relation} {reason.stance}", persona=reason.holder
                )
            case Concede():
                return self._concede(mutation, round_no)
            case Reframe():
                self.disputes[mutation.dispute].question = mutation.question
                return _effect(mutation, f"{mutation.dispute} reframed: {mutation.question}", persona=mutation.persona)
            case ProposeCrux():
                self.disputes[mutation.dispute].crux_proposed_by.append(mutation.persona)
                return _effect(
                    mutation, f"{mutation.persona} calls {mutation.dispute} the crux", persona=mutation.persona
                )
        raise TypeError(mutation)

    def _concede(self, concession: Concede, round_no: int) -> dict:
        persona, target = concession.persona, concession.target
        dispute = self.dispute_of(target)
        entry = {
            "round": round_no,
            "turn": concession.turn,
            "persona": persona,
            "target": target,
            "target_text": self.text_of(target),
            "dispute": dispute.id,
            "question": dispute.question,
            "what": concession.what,
            "removed": [],
            "settled": None,
        }
        if target in self.reasons and self.reasons[target].holder != persona:
            self.reasons[target].granted_by.append(persona)
            entry["effect"] = "granted"
            summary = f"{persona} grants {target}"
        elif target in self.reasons:
            entry["effect"] = "withdrew"
            entry["removed"] = self._remove([target])
            summary = f"{persona} withdraws {target}"
        else:
            # Conceding a stance gives up your own stance on that dispute (yours, or the
            # opposite one you now accept).
            own = self.stance_held(persona, dispute.id)
            entry["effect"] = "gave up stance"
            entry["target"], entry["target_text"] = own.id, own.claim
            entry["removed"] = self._remove([own.id])
            summary = f"{persona} gives up {own.id} ({own.side} on {dispute.id})"
        if settled := self._dissolve(dispute.id, entry, round_no):
            entry["settled"] = settled
            summary += f"; {dispute.id} settled" + (f" on {settled['answer']}" if settled["answer"] else "")
        self.concessions.append(entry)
        return _effect(concession, summary, persona=persona)

    def _remove(self, node_ids: Iterable[str]) -> list[str]:
        """Remove stances (with their reasons) and reasons; returns every id removed."""
        removed: list[str] = []
        for node_id in node_ids:
            if node_id in self.stances:
                removed += self._remove([r.id for r in self.reasons_of(node_id)])
                del self.stances[node_id]
                removed.append(node_id)
            elif node_id in self.reasons:
                del self.reasons[node_id]
                removed.append(node_id)
        return removed

    def _dissolve(self, dispute_id: str, entry: dict, round_no: int) -> dict | None:
        """A dispute left without a YES or without a NO is no longer a dispute: it leaves the map."""
        stances = self.stances_of(dispute_id)
        sides = {s.side for s in stances}
        if sides == {YES, NO}:
            return None
        dispute = self.disputes.pop(dispute_id)
        settled = {
            "dispute": dispute_id,
            "question": dispute.question,
            "disagreement_type": dispute.disagreement_type,
            "answer": sides.pop() if sides else "",
            "holders": [s.holder for s in stances],
            "claims": [{"persona": s.holder, "claim": s.claim} for s in stances],
            "conceded_by": entry["persona"],
            "what": entry["what"],
            "round": round_no,
            "turn": entry["turn"],
        }
        entry["removed"] += self._remove([s.id for s in stances])
        entry["removed"].append(dispute_id)
        self.settled.append(settled)
        return settled

    def apply_batch(self, mutations: Sequence[Mutation], transcript: Transcript, round_no: int = 0) -> BatchResult:
        """Validate and apply each mutation in turn order; rejected ones change nothing."""
        result = BatchResult()
        before = set(self.attacks())
        present = set(self.arguments()) | set(self.disputes)
        ordered = in_turn_order(mutations)
        for mutation in ordered[MAX_BATCH:]:
            result.rejected.append(
                {
                    "op": mutation.op,
                    "summary": mutation.describe(),
                    "reason": f"more than {MAX_BATCH} changes in one crystallization",
                }
            )
        for mutation in ordered[:MAX_BATCH]:
            try:
                admitted = self.admit(mutation, transcript)
            except Rejected as problem:
                result.rejected.append({"op": mutation.op, "summary": mutation.describe(), "reason": str(problem)})
                continue
            result.applied.append(self.apply(admitted, round_no))
        after = self.attacks()
        result.removed = sorted(present - set(self.arguments()) - set(self.disputes), key=_id_order)
        result.new_attacks = self._describe_attacks(
            [edge for edge in after if edge not in before], set(after), round_no
        )
        self.recent_attacks = (result.new_attacks + self.recent_attacks)[:RECENT_ATTACKS]
        remaining = set(self.arguments())
        for attack in self.recent_attacks:
            attack["removed"] = not {attack["from"], attack["to"]} <= remaining
        return result

    def _describe_attacks(self, edges: list[tuple[str, str]], all_edges: set, round_no: int) -> list[dict]:
        described, seen = [], set()
        for attacker, target in edges:
            if (target, attacker) in seen:
                continue
            seen.add((attacker, target))
            described.append(
                {
                    "from": attacker,
                    "to": target,
                    "mutual": (target, attacker) in all_edges,
                    "round": round_no,
                    "from_holder": self.holder_of(attacker),
                    "to_holder": self.holder_of(target),
                    "from_text": self.text_of(attacker),
                    "to_text": self.text_of(target),
                    "dispute": self.dispute_of(target).id,
                }
            )
        return described

    # ── persistence ───────────────────────────────────────────────────────────────────────────

    def to_dict(self) -> dict:
        def assumptions(items):
            return [a.to_dict() for a in items]

        return {
            "disputes": [
                {
                    "id": d.id,
                    "question": d.question,
                    "disagreement_type": d.disagreement_type,
                    "turn": d.turn,
                    "round": d.round,
                    "crux_proposed_by": list(d.crux_proposed_by),
                }
                for d in self.disputes.values()
            ],
            "stances": [
                {
                    "id": s.id,
                    "dispute": s.dispute,
                    "holder": s.holder,
                    "side": s.side,
                    "claim": s.claim,
                    "turn": s.turn,
                    "round": s.round,
                    "assumptions": assumptions(s.assumptions),
                }
                for s in self.stances.values()
            ],
            "reasons": [
                {
                    "id": r.id,
                    "stance": r.stance,
                    "holder": r.holder,
                    "relation": r.relation,
                    "text": r.text,
                    "turn": r.turn,
                    "round": r.round,
                    "assumptions": assumptions(r.assumptions),
                    "granted_by": list(r.granted_by),
                }
                for r in self.reasons.values()
            ],
            "next_id": dict(self.next_id),
            "settled": list(self.settled),
            "concessions": list(self.concessions),
            "recent_attacks": list(self.recent_attacks),
        }

    @classmethod
    def from_dict(cls, data: Mapping | None) -> DisputeGraph:
        graph = cls()
        data = data or {}
        for d in data.get("disputes", []):
            graph.disputes[d["id"]] = Dispute(**{**d, "crux_proposed_by": list(d.get("crux_proposed_by", []))})
        for s in data.get("stances", []):
            graph.stances[s["id"]] = Stance(
                **{**s, "assumptions": [Assumption.from_dict(a) for a in s.get("assumptions", [])]}
            )
        for r in data.get("reasons", []):
            graph.reasons[r["id"]] = Reason(
                **{
                    **r,
                    "assumptions": [Assumption.from_dict(a) for a in r.get("assumptions", [])],
                    "granted_by": list(r.get("granted_by", [])),
                }
            )
        graph.next_id.update(data.get("next_id", {}))
        graph.settled = list(data.get("settled", []))
        graph.concessions = list(data.get("concessions", []))
        graph.recent_attacks = list(data.get("recent_attacks", []))
        return graph


def _assumptions(items: Iterable[Assumption]) -> tuple[Assumption, ...]:
    cleaned = []
    for item in items:
        text = _clean(item.text, NOTE_CHARS)
        if text and all(_key(text) != _key(a.text) for a in cleaned):
            cleaned.append(Assumption(text=text, settling_question=_clean(item.settling_question, NOTE_CHARS)))
    return tuple(cleaned[:3])


def _effect(mutation: Mutation, summary: str, *, persona: str) -> dict:
    return {"op": mutation.op, "summary": summary, "turn": mutation.turn, "persona": persona}


def _id_order(node_id: str) -> tuple[str, int]:
    return node_id[:1], int(node_id[1:] or 0)
