"""The echo mode's one spec row, registered for a test and gone after it, and a fake Messages API
whose echo model says back the user's words (keyed on the call's model role, never on wording)."""

from __future__ import annotations

import pytest

from debates.modes import ModeSpec, mode_register, mode_unregister
from devtools.fake_messages_api import Call, Reply, message_text
from tests.debates.conftest import deck, owner_client, personas  # noqa: F401 (the page fixtures)
from tests.support.fake_anthropic import fake_messages_apis

ECHO_MODEL = "claude-echo-test"

ECHO = ModeSpec(
    key="echo",
    label="Echo (a test mode)",
    help="Each persona says the question back once.",
    behaviour="tests.echo_mode.mode.EchoMode",
    printer="tests.echo_mode.printer.print_echoes",
    model_roles={"echo": {"anthropic": ECHO_MODEL, "local": "SmolLM2-135M-Instruct"}},
    turn_kinds=("opening",),
)


@pytest.fixture
def echo_mode():
    mode_register(ECHO)
    yield ECHO
    mode_unregister(ECHO.key)


def _echo(body: dict, call: Call) -> Reply:
    if call.role != "echo" or body.get("model") != ECHO_MODEL:
        return Reply(status=400, error_type="invalid_request_error")  # the echo mode makes no other call
    said = [message_text(message["content"]) for message in body["messages"] if message["role"] == "user"]
    content = said[-1]
    text = content if isinstance(content, str) else " ".join(block.get("text", "") for block in content)
    return Reply.says(text)


@pytest.fixture
def echo_api(settings, echo_mode):
    """The real anthropic SDK pointed at the echo model; the echo role's model is its registered default."""
    with fake_messages_apis(settings, retries=0) as serve:
        yield serve(_echo)
