"""Persona ids are unique per owner, so nobody learns another user's ids: importing a contract whose
personaId is someone else's private persona answers exactly as for a free id (a new private
persona of one's own), and leaves theirs untouched. The shared (seed) ids are public and stay
refused; an import of shared personas never touches a user's persona that has the same id."""

import json

import pytest
from django.db import IntegrityError, transaction

from personas.models import Persona
from personas.services import persona_import
from tests.factories import PersonaFactory
from tests.personas.samples import contract_data, write_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def mallorys_secret(other_user):
    return PersonaFactory(persona_id="mallorys-secret", name="Mallory's Secret", owner=other_user, bias="Hidden.")


def import_page(client, persona_id: str, **fields):
    return client.post("/personas/import/", {"text": json.dumps(contract_data(persona_id, **fields))})


def test_another_users_private_id_answers_as_a_free_one_does(alice, user, mallorys_secret):
    free = import_page(alice, "never-used-anywhere")
    theirs = import_page(alice, "mallorys-secret", bias="Alice's own view.")

    assert (free.status_code, theirs.status_code) == (302, 302)
    mine = Persona.objects.get(persona_id="mallorys-secret", owner=user)
    assert theirs["Location"] == f"/personas/{mine.pk}/" and mine.bias == "Alice's own view."
    mallorys_secret.refresh_from_db()
    assert (mallorys_secret.owner_id, mallorys_secret.bias) != (user.pk, "Alice's own view.")
    assert mallorys_secret.bias == "Hidden."


def test_importing_it_again_updates_ones_own_not_theirs(alice, user, mallorys_secret):
    import_page(alice, "mallorys-secret", bias="First.")
    again = import_page(alice, "mallorys-secret", bias="Second.")

    assert again.status_code == 302
    assert Persona.objects.get(persona_id="mallorys-secret", owner=user).bias == "Second."
    assert Persona.objects.get(pk=mallorys_secret.pk).bias == "Hidden."


def test_a_shared_id_is_still_refused(alice):
    shared = PersonaFactory(persona_id="the-macro-bear", bias="The seed's.")

    content = import_page(alice, "the-macro-bear", bias="Overwritten!").content.decode()

    assert "personaId: &#x27;the-macro-bear&#x27; belongs to a shared persona" in content
    assert Persona.objects.get(pk=shared.pk).bias == "The seed's."


def test_importing_shared_personas_never_overwrites_a_users_persona_with_the_same_id(tmp_path, user, other_user):
    mine = PersonaFactory(persona_id="shared-later", owner=user, bias="Alice's.")

    persona_import(path=write_json(tmp_path / "shared-later.json", contract_data("shared-later", bias="Shared.")))

    shared = Persona.objects.get(persona_id="shared-later", owner__isnull=True)
    assert shared.bias == "Shared."
    mine.refresh_from_db()
    assert (mine.owner_id, mine.bias) == (user.pk, "Alice's.")


def test_the_database_keeps_ids_unique_per_owner_and_in_the_seed(user, other_user):
    PersonaFactory(persona_id="same-id", owner=user)
    PersonaFactory(persona_id="same-id", owner=other_user)
    PersonaFactory(persona_id="same-id")
    assert Persona.objects.filter(persona_id="same-id").count() == 3

    for owner in (user, None):
        with pytest.raises(IntegrityError), transaction.atomic():
            Persona.objects.create(persona_id="same-id", owner=owner, name="Twin", version="1")
