"""The browser and the command line take the same sides and send the same invitations: every field
of the side form has its ``stand`` option and back, and the invite-by-name form its ``invite``
option, except those listed with why (read from the code, as tests/debates/test_cli_parity.py)."""

import pytest
from django.core.management.base import BaseCommand

from debates.management.commands.invite import Command as Invite
from debates.management.commands.stand import Command as Stand
from debates.views.members import MemberAddForm
from debates.views.sides import SideForm

COMMON = {action.dest for action in BaseCommand().create_parser("manage.py", "any")._actions}
EVERY_COMMAND = {
    "debate_id": "the page's URL names the debate",
    "user": "the site acts for the signed-in user; the command line for --user (default: the login name)",
}

PAIRS = [
    # form, command, form field -> option, options of the command only (with why)
    pytest.param(
        SideForm,
        Stand,
        {"crux": "crux", "side": "side", "because": "because"},
        EVERY_COMMAND,
        id="stand",
    ),
    pytest.param(
        MemberAddForm,
        Invite,
        {"username": "member"},
        {**EVERY_COMMAND, "link": "the members page's 'Make an invite link' button, a form with no field"},
        id="invite",
    ),
]


@pytest.mark.parametrize(("form", "command", "mapping", "cli_only"), PAIRS)
def test_every_field_has_its_option_and_every_option_its_field(form, command, mapping, cli_only):
    options = {action.dest for action in command().create_parser("manage.py", "x")._actions} - COMMON
    assert set(form().fields) == set(mapping)
    assert options - set(mapping.values()) == set(cli_only)
