"""manage.py evaluate --suite core [--model fake|local|anthropic] [--json out.json]: debate quality,
measured on scenarios with known ground truth (orchestration/evaluation/).

manage.py evaluate --suite truth --model fake [--corpus DIR] [--json r.json] [--mode graph] [--scenario NAME]:
the truth corpus (evaluation/corpus/, played by orchestration/evaluation/corpus_run.py): scenarios in
a capable model's voice, each in its mode, read by a careless but honest scripted reader, scored per
mode on fake and missed consensus, points listed twice, inverted points, names that are not
participants, forbidden phrases on any surface, recalled memory, and each mode's own figures.
``--corpus evaluation/corpus/truth/held_out`` plays the held-out scenarios (reported apart).

manage.py evaluate --suite truth-legacy --model fake [...]: the hand-written suite from before the
corpus (orchestration/evaluation/truth.py), every scenario in every mode it is written for."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from evaluation.corpus.loader import CorpusError
from orchestration.evaluation import corpus_report, corpus_run, harness, truth
from orchestration.evaluation import report as report_format
from orchestration.evaluation.scenarios import SUITES
from orchestration.evaluation.truth_scenarios import MODES, SCENARIOS_BY_NAME

TRUTH, TRUTH_LEGACY = "truth", "truth-legacy"

REPORT_DIR = Path(settings.BASE_DIR) / "benchmarks" / "reports"  # git-ignored: reports are outputs, not sources


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=5
        )
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    raise CommandError(f"not a number: {text}")


def _assignment(text: str) -> tuple[str, list]:
    name, _, values = text.partition("=")
    if name not in harness.TUNABLE or not values:
        raise CommandError(f"give NAME=VALUE[,VALUE...] with NAME one of {', '.join(harness.TUNABLE)}")
    return name, [_value(v) for v in values.split(",")]


class Command(BaseCommand):
    help = "Run a scenario suite of whole debates and measure crux recall/precision, fake consensus and more."

    def add_arguments(self, parser):
        parser.add_argument("--suite", required=True, choices=sorted([*SUITES, TRUTH, TRUTH_LEGACY]))
        parser.add_argument("--model", choices=harness.MODELS, default="fake")
        parser.add_argument("--seeds", default="0,1,2", help="Comma-separated seeds (default 0,1,2)")
        parser.add_argument("--scenario", action="append", help="Run only this scenario (repeatable)")
        parser.add_argument("--json", help="Write the JSON report here (default: benchmarks/reports/)")
        parser.add_argument("--html", help="Write the HTML report here (default: next to the JSON)")
        parser.add_argument(
            "--set", action="append", default=[], metavar="NAME=VALUE", help="Override a detection threshold"
        )
        parser.add_argument(
            "--sweep", metavar="NAME=V1,V2,...", help="Also run the suite once per value of one threshold"
        )
        parser.add_argument("--keep", action="store_true", help="Keep the debates (they are deleted by default)")
        parser.add_argument(
            "--mode", action="append", choices=MODES, help="Truth suite: run only this mode (repeatable)"
        )
        parser.add_argument(
            "--corpus",
            metavar="DIR",
            help="Truth suite: the scenarios of this folder (default evaluation/corpus/truth; a folder named "
            "held_out is reported as the held-out scenarios)",
        )

    def handle(self, *args, **options):
        if options["model"] == "anthropic" and not settings.ANTHROPIC_API_KEY:
            raise CommandError("--model anthropic needs ANTHROPIC_API_KEY")
        if options["suite"] == TRUTH:
            return self._corpus(options)
        if options["suite"] == TRUTH_LEGACY:
            return self._truth(options)
        seeds = [int(_value(s)) for s in options["seeds"].split(",") if s.strip()]
        known = SUITES[options["suite"]]
        if unknown := set(options["scenario"] or []) - set(known):
            raise CommandError(
                f"unknown scenario {', '.join(sorted(unknown))}; {options['suite']} has {', '.join(known)}"
            )
        overrides = {}
        for assignment in options["set"]:
            name, values = _assignment(assignment)
            overrides[name] = values[0]
        call_command("migrate", interactive=False, verbosity=0)
        with harness.override_settings(**overrides):
            report = harness.suite_evaluate(
                suite_name=options["suite"],
                model=options["model"],
                seeds=seeds,
                keep=options["keep"],
                only=options["scenario"],
                progress=self._progress,
            )
            if options["sweep"]:
                name, values = _assignment(options["sweep"])
                report["sweep"] = harness.sweep_evaluate(
                    suite_name=options["suite"],
                    model=options["model"],
                    seeds=seeds,
                    setting=name,
                    values=values,
                    only=options["scenario"],
                )
        report["commit"] = _commit()
        report["created"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")

        default = REPORT_DIR / f"{options['suite']}-{options['model']}-{report['commit']}.json"
        json_path = Path(options["json"] or default)
        html_path = Path(options["html"] or json_path.with_suffix(".html"))
        for path, text in (
            (json_path, report_format.report_json(report)),
            (html_path, report_format.report_html(report)),
        ):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self._print(report)
        self.stdout.write(f"Report: {json_path} and {html_path}")

    def _corpus(self, options) -> None:
        if options["model"] != "fake":
            raise CommandError("the truth suite scripts what is said: it runs with --model fake only")
        root = Path(options["corpus"]) if options["corpus"] else None
        try:
            names = {s.name for s in corpus_run.corpus_load(root)}
        except (CorpusError, OSError) as exc:
            raise CommandError(f"the corpus cannot be read: {exc}") from exc
        if not names:
            raise CommandError(f"no scenario in {root}")
        if unknown := set(options["scenario"] or []) - names:
            raise CommandError(
                f"unknown scenario {', '.join(sorted(unknown))}; the corpus has {', '.join(sorted(names))}"
            )
        call_command("migrate", interactive=False, verbosity=0)
        report = corpus_run.corpus_evaluate(
            root=root, only=options["scenario"], modes=options["mode"], progress=self._corpus_progress
        )
        report["commit"] = _commit()
        report["created"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        apart = "-held-out" if report["held_out"] else ""
        json_path = Path(options["json"] or REPORT_DIR / f"truth{apart}-fake-{report['commit']}.json")
        text = corpus_report.corpus_report_text(report)
        for path, content in ((json_path, report_format.report_json(report)), (json_path.with_suffix(".txt"), text)):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        self.stdout.write(text)
        self.stdout.write(f"Report: {json_path} and {json_path.with_suffix('.txt')}")

    def _corpus_progress(self, record: dict) -> None:
        self.stderr.write(
            f"  {record['scenario']}: {record['status']}, expected {record['expected']}, "
            f"reported {record['verdict'] or '–'}, {record['seconds']} s"
        )

    def _truth(self, options) -> None:
        if options["model"] != "fake":
            raise CommandError("the truth suite scripts what is said: it runs with --model fake only")
        if unknown := set(options["scenario"] or []) - set(SCENARIOS_BY_NAME):
            raise CommandError(
                f"unknown scenario {', '.join(sorted(unknown))}; truth has {', '.join(SCENARIOS_BY_NAME)}"
            )
        call_command("migrate", interactive=False, verbosity=0)
        report = truth.truth_evaluate(only=options["scenario"], modes=options["mode"], progress=self._truth_progress)
        report["commit"] = _commit()
        report["created"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        json_path = Path(options["json"] or REPORT_DIR / f"truth-legacy-fake-{report['commit']}.json")
        text = report_format.truth_report_text(report)
        for path, content in ((json_path, report_format.report_json(report)), (json_path.with_suffix(".txt"), text)):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        self.stdout.write(text)
        self.stdout.write(f"Report: {json_path} and {json_path.with_suffix('.txt')}")

    def _truth_progress(self, record: dict) -> None:
        m = record["metrics"]
        self.stderr.write(
            f"  {record['scenario']} ({record['mode']}): {record['status']}, expected {record['expect']}, "
            f"got {m['outcome']}, {len(record['reported_cruxes'])} crux(es) reported, {record['seconds']} s"
        )

    def _progress(self, debate: dict) -> None:
        m = debate["metrics"]
        self.stderr.write(
            f"  {debate['scenario']} seed {debate['seed']}: {debate['status']}, regime {m['regime']}, "
            f"recall {m['recall']}, precision {m['precision']}, {len(debate['cards'])} card(s), {debate['seconds']} s"
        )

    def _print(self, report: dict) -> None:
        self.stdout.write(f"Suite {report['suite']} · model {report['model']} · seeds {report['seeds']}")
        for key, value in report["summary"].items():
            self.stdout.write(f"  {key}: {value}")
        for row in report.get("sweep") or []:
            self.stdout.write(
                f"  sweep {row['setting']}={row['value']}: recall {row['recall']}, precision {row['precision']}, "
                f"fake consensus {row['fake_consensus_rate']} (by cards alone {row['fake_consensus_rate_by_cards_alone']}), "
                f"duplicate rooms {row['duplicate_rooms']}"
            )
        if report.get("judge"):
            self.stdout.write(f"  LLM judge (opinion, apart from ground truth): {report['judge']}")
