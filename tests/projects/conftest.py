import subprocess

import pytest

from debates.services.lifecycle import debate_create
from projects.models import Assignment, Document, Note, Project
from tests.debates.log_builder import DebateLog, sample_results
from tests.factories import DeckFactory, PersonaFactory
from tests.orchestrator.conftest import scripted_api  # noqa: F401  (a fixture)

MARKER = "The thesis committee meets on 14 March and wants the Lisbon dataset"


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def other_client(client, other_user):
    client.force_login(other_user)
    return client


@pytest.fixture
def personas(db):
    return [
        PersonaFactory(persona_id="ada-hardmoney", name="Ada Hardmoney"),
        PersonaFactory(persona_id="bram-macro", name="Bram Macro"),
        PersonaFactory(persona_id="cleo-central", name="Cleo Central"),
    ]


@pytest.fixture
def deck(personas):
    return DeckFactory(slug="money", name="Money", personas=personas)


@pytest.fixture
def project(user):
    project = Project.objects.create(owner=user, name="Thesis", description="My master's thesis.", goals="Finish it.")
    Document.objects.create(project=project, title="Plan", kind="md", filename="plan.md", size=60, text=MARKER)
    Assignment.objects.create(
        project=project,
        name="Chapter 2",
        brief="Write the methods chapter.",
        checklist=[{"text": "Outline", "done": True}],
    )
    return project


@pytest.fixture
def finished_debate(user, personas, deck, project):
    """A finished debate with project context and results, as the orchestrator leaves one."""
    debate = debate_create(
        owner=user, topic="Should the thesis use the Lisbon data?", personas=personas[:2], deck=deck, context=project
    )
    log = DebateLog(debate).start()
    log.say(personas[0], "Yes, it is the best data there is.")
    log.complete(sample_results("Is the Lisbon data representative?", names=("Ada Hardmoney", "Bram Macro")))
    debate.refresh_from_db()
    return debate


@pytest.fixture
def note(project, finished_debate):
    return Note.objects.create(project=project, title="A note", content="Some **Markdown**.", tags=["debate"])


@pytest.fixture
def git_repository(tmp_path, settings):
    """A small local git repository with a README, some code and two commits, in a folder the web
    may read local repositories from."""
    settings.FAULTLINE_REPOSITORY_ROOTS = [str(tmp_path)]
    folder = tmp_path / "widget"
    (folder / "src").mkdir(parents=True)
    (folder / "README.md").write_text("# Widget\n\nWidget turns sprockets into gears, fast.\n" + "More. " * 400)
    (folder / "src" / "widget.py").write_text("print('widget')\n")
    (folder / "src" / "helpers.js").write_text("export const x = 1;\n")

    def git(*args):
        subprocess.run(
            ["git", "-c", "user.name=Tess Ter", "-c", "user.email=t@example.com", *args],
            cwd=folder,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", "README.md")
    git("commit", "-q", "-m", "Start with a README")
    git("add", ".")
    git("commit", "-q", "-m", "Add the widget")
    return folder
