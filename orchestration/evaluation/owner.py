"""The evaluation's own owner: a throwaway user made for one run, owning every persona and debate
the run makes, and deleted with all of it afterwards, even when the run fails. Nothing the
evaluation makes is a seed persona, so nothing of it is ever shown to a user or keeps the seed
from loading (personas/services/contract_import.py)."""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Iterator

from django.contrib.auth import get_user_model

from debates.models import Debate
from gateways.llm.models import ModelCall
from personas.models import Persona

PREFIX = "eval-"


def owner_create():
    """A user no one can log in as (no usable password), named for the evaluation."""
    return get_user_model().objects.create_user(username=f"{PREFIX}{uuid.uuid4().hex[:12]}", password=None)


@contextlib.contextmanager
def throwaway_owner() -> Iterator:
    user = owner_create()
    try:
        yield user
    finally:
        owner_remove(user)


def owner_remove(user) -> None:
    """The owner and everything it made. Debates go first (their messages hold on to the personas),
    their model calls billed to the owner as for any deleted debate, and so deleted with it."""
    ModelCall.objects.filter(debate__owner=user).update(owner_of_deleted_debate=user)
    Debate.objects.filter(owner=user).delete()
    user.delete()  # personas, insights, memories and the model calls go with it


def owned_persona(owner, *, name: str, **fields) -> Persona:
    """A persona private to ``owner`` (its handle unique to the run)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return Persona.objects.create(persona_id=f"{owner.username}-{slug}"[:80], owner=owner, name=name, **fields)
