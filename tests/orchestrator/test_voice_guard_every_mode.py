"""One voice guard for every speaker, in every mode, run end to end: personas whose own lists are
empty (a role, a persona built or cloned without any) still never say the house's phrases on the
page (streaming included), in the stored record, the replay or the exports; Markdown is filtered
as well as prose (Collaborate's drafts, revisions and artifact); a sentence that carries the
speaker's answer is asked for again, and when the speaker says it the same way twice, the phrase
is cut and the answer kept. The scripted speakers slip as a capable model does; they answer a
second draft by the call's tag (attempt 2), never by its wording."""

import json
import re

import pytest

from debates.exports import debate_markdown
from debates.models import Debate, Message
from debates.modes import mode_spec
from debates.selectors import debate_view
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import Call
from devtools.prompt_reading import Reading
from devtools.scripted_debate import DebateScript
from gateways.llm.models import ModelCall
from orchestration.run import debate_run
from orchestration.voice import find_forbidden
from personas.house import HOUSE_FORBIDDEN_PHRASES
from personas.models import Persona
from personas.services import role_personas
from tests.orchestrator.conftest import make_persona
from tests.support.announcement_recorder import AnnouncementRecorder
from tests.support.fake_anthropic import fake_messages_apis

pytestmark = pytest.mark.django_db(transaction=True)

HOUSE = list(HOUSE_FORBIDDEN_PHRASES)
RAMP = "whether the ramp is funded"


class SlippingScript(DebateScript):
    """The shared scripted debate, but every speaker's first draft slips into a house phrase, in
    the sentence that carries its answer; asked again (attempt 2) it says the same in other words,
    except ``stubborn`` speakers (by persona id, or role), who say it the same way twice."""

    def __init__(self, *, stubborn=(), **options):
        super().__init__(dispute="none", **options)
        self.stubborn = set(stubborn)

    def _again(self, call: Call, who: str) -> bool:
        return call.attempt > 1 and who not in self.stubborn

    def _persona_turn_text(self, reading: Reading) -> str:
        call = reading.call
        if call.role in ("analyst", "critic") or call.phase == "analyst_critic_synthesis":
            return self._role_turn(call)
        name = reading.name_of(call.persona) or call.persona
        if call.phase == "opening":
            if self._again(call, call.persona):
                return f"{name} here. My answer turns on {RAMP}. Without it, no."
            return f"{name} here. It depends on {RAMP}. Without it, no."
        if call.phase == "closing":
            if self._again(call, call.persona):
                return f"To close: my answer turns on {RAMP}, and I conceded the timing."
            return f"That's a great point, everyone. To close: it depends on {RAMP}, and I conceded the timing."
        return f"Agreed: a pilot in two districts first. I understand your perspective, but {RAMP} decides it."

    def _role_turn(self, call: Call) -> str:
        said = self._analyst_critic_turn(call)
        if self._again(call, call.role):
            return said
        if call.role == "analyst":
            return f"Great question. {said}"
        if call.role == "critic":
            return f"That's a great point about fees, and I accept it. {said}"
        return f"As an AI, I would sum up: {said}"

    def _collaboration_output(self, role: str, call: Call) -> str:
        if role == "artifact":
            # The synthesis model is stubborn: the same disclaimer twice.
            return (
                "# Shared design\n\nAs an AI, I have merged the two revised answers into one plan.\n\n"
                "## Grace periods\n\n| Who | Period |\n|---|---|\n"
                "| Everyone else | It depends on account risk: 14 days by default |\n"
            )
        if self._again(call, role):
            return (
                f"## {role.capitalize()}\n\n- **SMS fallback.** I accept it: apps first, SMS last.\n"
                "- **Grace periods.** 14 days by default, 7 after a suspicious login.\n"
            )
        return (
            f"## {role.capitalize()}\n\n- **SMS fallback.** That's a great point, and I accept it: apps first, SMS last.\n"
            "- **Grace periods.** I understand your perspective on friction, and 14 days by default is fair.\n"
        )


# The app's own labels are not speech (the NUANCED side is shown as "it depends"): where a surface
# shows them, they are taken out before the speech on it is searched.
APP_LABELS = [
    re.compile(r'<section class="stance-charts".*?</section>', re.S),  # "... ends it depends"
    re.compile(r"^### Final stances\n\n(?:- .*\n)*", re.M),  # "- **Ada**: it depends"
    re.compile(r"^One letter per message: .*$", re.M),  # the stance letters' legend
]


def no_house_phrase(surface: str, where: str) -> None:
    for label in APP_LABELS:
        surface = label.sub("", surface)
    found = find_forbidden(surface, HOUSE)
    assert not found, f"{found} in {where}"


def every_surface(debate: Debate, pushed: str, client) -> dict[str, str]:
    view = debate_view(debate_id=debate.id)
    stored = "\n".join(Message.objects.filter(debate=debate).values_list("text", flat=True))
    exported = json.loads(client.get(f"/debates/{debate.id}/export.json").content)
    messages = [e["payload"].get("text", "") for e in exported["events"] if e["kind"] == "message_completed"]
    return {
        "the page, as it streamed": pushed,
        "the stored messages": stored,
        "the replay": client.get(f"/debates/{debate.id}/replay/").content.decode(),
        "the results page": client.get(f"/debates/{debate.id}/results/").content.decode(),
        "the Markdown export": debate_markdown(debate=debate, view=view),
        "the JSON export's messages": "\n".join(messages),
    }


@pytest.fixture
def slipping(settings, user, client):
    client.force_login(user)
    with fake_messages_apis(settings, retries=2) as serve:

        def run(mode: str, *, stubborn=(), personas=None, **create) -> tuple[Debate, dict[str, str]]:
            script = SlippingScript(stubborn=stubborn)
            serve(script.respond)
            # The two-role modes' seats are role personas: their own forbidden lists are empty.
            personas = personas or [Persona.objects.get(persona_id=p) for p in role_personas(mode_spec(mode).seats)]
            debate = debate_create(owner=user, mode=mode, personas=personas, **create)
            with AnnouncementRecorder(debate.id) as recorder:
                debate = debate_run(debate_id=debate.id)
            assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
            return debate, every_surface(debate, recorder.pushed, client)

        yield run


@pytest.fixture
def quiet_personas(db):
    """Personas whose own forbidden lists are empty: the house's list alone guards them."""
    return [make_persona(name, forbidden_phrases=[]) for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central")]


def test_a_dialogue_keeps_every_answer_and_never_shows_a_house_phrase(slipping, quiet_personas):
    ada, bram, cleo = quiet_personas
    debate, surfaces = slipping(
        "dialogue",
        stubborn={cleo.persona_id},
        personas=quiet_personas,
        topic="Should the city build the ramp?",
        max_turns=3,
    )

    for where, surface in surfaces.items():
        no_house_phrase(surface, where)
    openings = {m.persona.name: m.text for m in Message.objects.filter(debate=debate, kind="opening")}
    assert openings[ada.name] == f"{ada.name} here. My answer turns on {RAMP}. Without it, no."
    # Said the same way twice: the phrase is cut, the answer kept.
    assert openings[cleo.name] == f"{cleo.name} here. It turns on {RAMP}. Without it, no."
    # A natural "Agreed: ..." line is speech, not the prompt's furniture.
    replies = Message.objects.filter(debate=debate, room__isnull=True).exclude(kind__in=["opening", "closing"])
    assert replies and all(m.text.startswith("Agreed: a pilot in two districts first.") for m in replies)
    # Each first draft that slipped was asked for again, by its tag.
    assert ModelCall.objects.filter(debate=debate, role="persona", tag__attempt="2").exists()


def test_the_analyst_and_the_critic_never_show_a_house_phrase(slipping):
    debate, surfaces = slipping(
        "analyst_critic",
        topic="Should we buy index funds?",
        max_turns=2,
        options=DebateOptions(auto_continue=True),
    )
    assert all(not persona.forbidden_phrases for persona in debate.personas.all())

    for where, surface in surfaces.items():
        no_house_phrase(surface, where)
    critic = Message.objects.filter(debate=debate, kind=Message.Kind.CRITIQUE).order_by("turn").first()
    assert critic is not None and "That's a great point" not in critic.text


def test_collaborate_long_markdown_is_filtered_and_its_acceptances_kept(slipping):
    debate, surfaces = slipping("collaborate", stubborn={"artifact"}, topic="Design two-factor sign-in")

    for where, surface in surfaces.items():
        no_house_phrase(surface, where)
    revisions = Message.objects.filter(debate=debate, kind="revision")
    assert revisions.count() == 2
    for revision in revisions:
        assert "- **SMS fallback.** I accept it: apps first, SMS last." in revision.text
    artifact = debate.results["artifact"]
    assert "I have merged the two revised answers into one plan." in artifact  # the disclaimer cut, the rest kept
    assert "| Everyone else | It turns on account risk: 14 days by default |" in artifact
    assert re.search(r"^# Shared design$", artifact, re.MULTILINE)  # Markdown kept whole
