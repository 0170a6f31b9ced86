"""What a debate costs: tokens, cache share and dollars per model role, one debate per mode.

Each mode's Standard debate (dialogue and graph: 3 personas, 30 turns; Analyst vs Critic and
Collaborate: their two seats, their default rounds) runs through the real orchestrator, the real
anthropic SDK and the fake Messages API, which reports cache writes and reads the way the API does:
per cache_control breakpoint, the prefix hashed, each model's minimum cacheable length and the
5-minute / 1-hour TTL honoured (gateways/llm/pricing.py). A simulated clock advances a realistic
time per call (SECONDS_PER_SPOKEN_CALL, SECONDS_PER_SIDE_CALL), so the TTLs expire as in a real
debate, not as in a fast fake one. The ModelCall ledger is then read per role: calls, input tokens
(plain + cache writes + cache reads), the cached share (cache reads / input), output tokens,
estimated dollars, calls per persona turn (a persona turn: a streamed call).

    .venv/bin/python benchmarks/cost.py [--modes dialogue,graph,analyst_critic,collaborate]
    .venv/bin/python benchmarks/cost.py --baseline 0856b18      # the same, side by side with a commit
    .venv/bin/python benchmarks/cost.py --model persona=claude-haiku-5-5   # another model in a role
    .venv/bin/python benchmarks/cost.py --pause-minutes 10   # paused after each round, continued 10 min later

--baseline runs this script, the fake API and the price table of this checkout against the code of
the given commit, checked out in a temporary git worktree (removed afterwards), in a subprocess
with its own embedded PostgreSQL and Redis; then prints both tables and the differences.

Uses its own embedded PostgreSQL and Redis (.faultline/bench-cost) unless DATABASE_URL/REDIS_URL are set.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench-cost"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

MODES = ["dialogue", "graph", "analyst_critic", "collaborate"]
TOPIC = "Is gold still a hedge against inflation?"
STANDARD_TURNS = 30
SECONDS_PER_SPOKEN_CALL = 12.0  # a streamed turn of ~120 words at ~40 tokens/s, plus the pause around it
SECONDS_PER_SIDE_CALL = 0.0  # side work runs beside the turns: it adds no time to the debate
# What this benchmark carries into a baseline's worktree: itself, and the fake API and price table
# it measures with (so both sides are measured by the same ruler).
# Scripted turns are one sentence; real ones run 3-4 (about 100 tokens): spoken replies are padded
# to that, so output tokens and the recent exchange each context carries are a real debate's.
PADDING = [
    "The record over several cycles is what I keep coming back to.",
    "You can argue about the quarter, but the decade tells a different story.",
    "Policy mistakes compound, and savers are the ones who pay for them.",
    "If the numbers turned against me for ten years, I would say so plainly.",
    "That is not a forecast, it is a reading of incentives.",
    "Liquidity matters, but liquidity is not the same thing as value.",
    "Ask anyone who held cash through the last decade what it bought them at the end of it.",
]
RULER = ["benchmarks/cost.py", "devtools/fake_messages_api.py", "gateways/llm/pricing.py"]


class SimulatedClock:
    def __init__(self) -> None:
        self.now = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


def _row() -> dict:
    return {"calls": 0, "input": 0, "cache_read": 0, "cache_write": 0, "output": 0, "dollars": 0.0}


def _add(row: dict, call) -> None:
    """Count ``call`` (a ModelCall) into ``row``: input is plain + cache writes + cache reads."""
    row["calls"] += 1
    row["input"] += call.input_tokens + call.cache_creation_tokens + call.cache_read_tokens
    row["cache_read"] += call.cache_read_tokens
    row["cache_write"] += call.cache_creation_tokens
    row["output"] += call.output_tokens
    row["dollars"] += float(call.cost_usd)


def run_mode(mode: str, pause_minutes: float | None = None) -> dict:
    """``pause_minutes``: the debate pauses after each round, and its owner continues it this many
    (simulated) minutes later; None: it runs on by itself, as a Standard debate does."""
    from django.conf import settings

    from debates.models import Debate
    from debates.modes import mode_spec
    from debates.services.lifecycle import DebateOptions, debate_continue, debate_create
    from devtools.fake_messages_api import FakeMessagesAPI
    from devtools.scripted_debate import DebateScript
    from gateways.llm import gateway
    from gateways.llm.models import ModelCall
    from orchestration.run import debate_run
    from personas.models import Deck, Persona

    spec = mode_spec(mode)
    if spec.seats:
        from personas.services import role_personas

        hand = [Persona.objects.get(persona_id=pid) for pid in role_personas(spec.seats)]
        turns = None
    else:
        hand = list(Deck.objects.get(slug="money-and-markets").personas.order_by("name")[:3])
        turns = STANDARD_TURNS
    script = DebateScript(dispute="persistent", surface_after=4, memory=True, chunk_size=200)
    clock = SimulatedClock()

    filler = itertools.cycle(PADDING)

    def respond(body, call):
        reply = script.respond(body, call)
        if body.get("stream") and reply.status == 200 and reply.text.strip() and reply.text.strip() != "PASS":
            reply.text = " ".join([reply.text, next(filler), next(filler), next(filler)])
        clock.advance(SECONDS_PER_SPOKEN_CALL if body.get("stream") else SECONDS_PER_SIDE_CALL)
        return reply

    with FakeMessagesAPI(responder=respond, clock=clock) as api:
        settings.FAULTLINE_LLM, settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL = "anthropic", "bench", api.url
        gateway.reset_provider()
        debate = debate_create(
            owner=None,
            topic=TOPIC,
            personas=hand,
            mode=mode,
            max_turns=turns,
            options=DebateOptions(auto_continue=pause_minutes is None, pause_after_round=pause_minutes is not None),
        )
        debate = debate_run(debate_id=debate.id)
        while pause_minutes is not None and debate.status == Debate.Status.PAUSED:
            clock.advance(pause_minutes * 60)
            debate_continue(debate=debate, enqueue=False)
            debate = debate_run(debate_id=debate.id)
    calls = list(ModelCall.objects.filter(debate=debate))
    roles: dict[str, dict] = {}
    phases: dict[str, dict] = {}
    for call in calls:
        _add(roles.setdefault(call.role, _row()), call)
        # Calls by what they do (the call's phase tag: ledger, round_record, closing, crux_room...).
        if call.role != "embedding":
            group = phases.setdefault("persona" if call.streamed else "side", {})
            phase = call.phase.split("_")[0] if call.phase.startswith("dialogue_") else call.phase or "-"
            _add(group.setdefault(phase, _row()), call)
    return {
        "mode": mode,
        "status": debate.status,
        "persona_turns": sum(1 for call in calls if call.streamed),
        # Side calls are the Messages API calls that are not a persona's turn (the measure);
        # the embedding batches go to the embedding provider and are counted apart.
        "side_calls": sum(1 for call in calls if not call.streamed and call.role != "embedding"),
        "embedding_calls": sum(1 for call in calls if call.role == "embedding"),
        "simulated_minutes": round(clock.now / 60, 1),
        "roles": roles,
        "phases": phases,
    }


def measure(modes: list[str], models: dict[str, str] | None = None, pause_minutes: float | None = None) -> list[dict]:
    """``models``: role -> model, instead of the configured one (what another persona model would
    cost); ``pause_minutes``: see run_mode."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.FAULTLINE_MODELS["anthropic"].update(models or {})

    call_command("migrate", verbosity=0)
    call_command("loadseed", verbosity=0)
    return [run_mode(mode, pause_minutes) for mode in modes]


def _total(result: dict) -> dict:
    total = {"calls": 0, "input": 0, "cache_read": 0, "cache_write": 0, "output": 0, "dollars": 0.0}
    for row in result["roles"].values():
        for key in total:
            total[key] += row[key]
    return total


def _line(name: str, row: dict, turns: int) -> str:
    share = row["cache_read"] / row["input"] if row["input"] else 0.0
    per_turn = row["calls"] / turns if turns else 0.0
    return (
        f"  {name:<12} {row['calls']:>5} {row['input']:>9,} {share:>7.0%} {row['output']:>8,} "
        f"${row['dollars']:>7.3f} {per_turn:>9.2f}"
    )


def table(result: dict) -> str:
    turns = result["persona_turns"]
    lines = [
        f"{result['mode']}: {result['status']}, {turns} persona turns, {result['side_calls']} side calls "
        f"({result['side_calls'] / max(turns, 1):.2f} per persona turn; embedding batches apart: "
        f"{result.get('embedding_calls', 0)}), ~{result['simulated_minutes']} simulated minutes",
        f"  {'role':<12} {'calls':>5} {'input':>9} {'cached':>7} {'output':>8} {'dollars':>8} {'per turn':>9}",
    ]
    for role, row in sorted(result["roles"].items()):
        lines.append(_line(role, row, turns))
    lines.append(_line("total", _total(result), turns))
    for group, phases in sorted(result.get("phases", {}).items()):
        lines.append(f"  {group} calls by phase:")
        for name, row in sorted(phases.items(), key=lambda item: -item[1]["dollars"]):
            share = row["cache_read"] / row["input"] if row["input"] else 0.0
            lines.append(
                f"    {name:<18} {row['calls']:>3} calls {row['input']:>8,} in ({share:>4.0%} cached, "
                f"{row.get('cache_write', 0):>6,} written) "
                f"{row['output']:>6,} out ${row['dollars']:.3f}"
            )
    return "\n".join(lines)


def side_by_side(baseline: dict, current: dict, label: str) -> str:
    def figures(result: dict) -> tuple:
        total = _total(result)
        turns = max(result["persona_turns"], 1)
        share = total["cache_read"] / total["input"] if total["input"] else 0.0
        return total["calls"], total["input"], share, result["side_calls"] / turns, total["dollars"]

    def spoken(result: dict) -> float:
        return result["roles"].get("persona", {}).get("dollars", 0.0)

    calls_b, input_b, share_b, side_b, dollars_b = figures(baseline)
    calls_c, input_c, share_c, side_c, dollars_c = figures(current)
    change = (dollars_c - dollars_b) / dollars_b if dollars_b else 0.0
    # Split in two because they move by different means: the persona calls (the seats' words, their
    # contracts, every message they read) by caching and by what the personas say; the rest by
    # fewer and shorter side calls.
    spoken_b, spoken_c = spoken(baseline), spoken(current)
    return (
        f"  {current['mode']:<15} calls {calls_b:>4} -> {calls_c:<4} input {input_b:>8,} -> {input_c:<8,} "
        f"cached {share_b:>4.0%} -> {share_c:<4.0%} side calls/turn {side_b:.2f} -> {side_c:.2f}  "
        f"${dollars_b:.3f} -> ${dollars_c:.3f} ({change:+.0%} against {label})\n"
        f"  {'':<15} persona calls ${spoken_b:.3f} -> ${spoken_c:.3f}, every other call "
        f"${dollars_b - spoken_b:.3f} -> ${dollars_c - spoken_c:.3f}"
    )


def run_baseline(commit: str, modes: list[str], scenario: list[str] = ()) -> list[dict]:
    """This script's measurement of ``commit``'s code, from a temporary worktree of it; ``scenario``:
    this run's --model and --pause-minutes arguments, so both sides play the same debate."""
    where = Path(tempfile.mkdtemp(prefix="faultline-cost-baseline-"))
    tree = where / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit], check=True)
    try:
        for path in RULER:
            shutil.copyfile(ROOT / path, tree / path)
        venv = ROOT / ".venv"
        if venv.exists():
            (tree / ".venv").symlink_to(venv.resolve())
        env = {k: v for k, v in os.environ.items() if k != "FAULTLINE_STATE_DIR"}
        env["FAULTLINE_STATE_DIR"] = str(where / "state")
        out = where / "baseline.json"
        subprocess.run(
            [
                sys.executable,
                str(tree / "benchmarks/cost.py"),
                "--modes",
                ",".join(modes),
                "--json",
                str(out),
                *scenario,
            ],
            cwd=tree,
            env=env,
            check=True,
        )
        return json.loads(out.read_text())
    finally:
        state = where / "state"
        if state.exists():
            subprocess.run(
                [sys.executable, "-m", "faultline", "stop"],
                cwd=tree,
                env={**os.environ, "FAULTLINE_STATE_DIR": str(state)},
                check=False,
                capture_output=True,
            )
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(where, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--baseline", default="", help="a commit to measure side by side (in a temporary worktree)")
    parser.add_argument("--json", default="", help="write the figures to this file as well")
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="ROLE=MODEL",
        help="measure with another model in a role, e.g. persona=claude-haiku-5-5",
    )
    parser.add_argument(
        "--pause-minutes",
        type=float,
        default=None,
        help="the debate pauses after each round and its owner continues it this many minutes later "
        "(without it the debate runs on by itself)",
    )
    args = parser.parse_args()
    modes = [mode for mode in args.modes.split(",") if mode]
    models = dict(choice.split("=", 1) for choice in args.model if "=" in choice)

    scenario = [f"--model={choice}" for choice in args.model]
    if args.pause_minutes is not None:
        scenario.append(f"--pause-minutes={args.pause_minutes}")
    baseline = run_baseline(args.baseline, modes, scenario) if args.baseline else None
    results = measure(modes, models, args.pause_minutes)
    if args.json:
        Path(args.json).write_text(json.dumps(results))
    if baseline:
        print(f"baseline {args.baseline}:")
        for result in baseline:
            print(table(result))
        print("\nthis checkout:")
    for result in results:
        print(table(result))
    if baseline:
        print(f"\nside by side ({args.baseline} -> this checkout):")
        for before, after in zip(baseline, results, strict=True):
            print(side_by_side(before, after, args.baseline))


if __name__ == "__main__":
    main()
