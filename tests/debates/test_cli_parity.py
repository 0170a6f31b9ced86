"""The browser and the command line can set up the same debate: every setup-page field has its
rundebate option and every rundebate option its setup-page field, except the few listed below with
why. Both sides are read from the code (the form's fields, the command's argparse parser), so a
field or an option added to one side only fails here until it is mapped or exempted."""

from django.core.management.base import BaseCommand

from debates.forms import DebateSetupForm
from debates.models import Debate
from debates.modes import modes_available
from debates.services.lifecycle import MAX_ROUNDS
from orchestration.management.commands.rundebate import Command as RunDebate

# setup-page field -> the rundebate options (argparse dests) that set the same thing
FORM_TO_CLI = {
    "deck": {"deck"},
    "personas": {"personas"},
    "topic": {"topic"},
    "length": {"length"},
    "mode": {"mode"},
    "rounds": {"max_rounds"},
    "auto_continue": {"auto_continue"},
    "pause_after_round": {"pause_after_round"},
    # The page picks one of the user's own projects, assignments or repositories from one list.
    "context": {"project", "assignment", "repository"},
    "recall_all_insights": {"recall_all_insights"},
    "rerun_of": {"rerun_of"},
}

# Options of one side only, each with why it has no counterpart on the other.
CLI_ONLY = {
    "trace": "a developer's log of every model call (full prompts) written to a local file",
    "resume": "not a setup choice: the site's Resume and Continue buttons on the debate's own page do it",
    "save_note": "the results page's 'Save as note' button does it after the debate; the command runs to the end "
    "in the foreground, so it saves then",
    "save_document": "the results page's 'Save as document' button does it after the debate (as save_note)",
    "user": "the site acts for the signed-in user; the command line for --user (default: the login name)",
    "max_turns": "a turn count finer than the page's three lengths, for scripted runs and benchmarks; "
    "--length is the page's choice",
}
FORM_ONLY: dict[str, str] = {}


def cli_options() -> set[str]:
    """rundebate's own options: its parser's, less those every Django command has."""
    own = {action.dest for action in RunDebate().create_parser("manage.py", "rundebate")._actions}
    common = {action.dest for action in BaseCommand().create_parser("manage.py", "any")._actions}
    return own - common


def form_fields() -> set[str]:
    return set(DebateSetupForm().fields)


def test_every_setup_field_has_its_option_and_every_option_its_field():
    mapped_cli = set().union(*FORM_TO_CLI.values())

    assert form_fields() - set(FORM_TO_CLI) - set(FORM_ONLY) == set(), "setup fields with no rundebate option"
    assert cli_options() - mapped_cli - set(CLI_ONLY) == set(), "rundebate options with no setup field"
    # The tables name only what exists, so a removed field or option does not linger here.
    assert set(FORM_TO_CLI) | set(FORM_ONLY) == form_fields()
    assert mapped_cli | set(CLI_ONLY) == cli_options()
    assert all(reason.strip() for reason in {**CLI_ONLY, **FORM_ONLY}.values())


def test_the_choices_match_on_both_sides():
    parser = RunDebate().create_parser("manage.py", "rundebate")
    option = {action.dest: action for action in parser._actions}
    form = DebateSetupForm()

    assert set(option["mode"].choices) == {key.replace("_", "-") for key, _ in form.fields["mode"].choices}
    assert {spec.key for spec in modes_available()} == {key for key, _ in form.fields["mode"].choices}
    assert set(option["length"].choices) == {key for key, _ in form.fields["length"].choices} == set(Debate.Length)
    assert (form.fields["rounds"].min_value, form.fields["rounds"].max_value) == (1, MAX_ROUNDS) == (1, 10)
    assert option["pause_after_round"].nargs == 0 and option["auto_continue"].nargs == 0
