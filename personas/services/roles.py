"""The Analyst/Critic mode's plain roles, for a debate without a hand of personas."""

from personas.models import Persona

_ROLE_PERSONAS = {
    "analyst": (
        "Analyst",
        "A careful analyst who answers with concrete, reasoned points and refines them on criticism.",
    ),
    "critic": ("Critic", "A fair, exacting critic who accepts what holds and says precisely what does not, and why."),
}


def role_personas() -> list[str]:
    """The persona ids of the plain Analyst and Critic (created the first time they are needed)."""
    for persona_id, (name, personality) in _ROLE_PERSONAS.items():
        Persona.objects.get_or_create(
            persona_id=persona_id,
            defaults=dict(
                name=name,
                version="2026-11-24T00:00:00Z",
                tagline=f"The {name} of an Analyst/Critic debate",
                personality=personality,
                bias="None declared.",
                stakes="Getting the answer right.",
                epistemology="Weighs evidence and reasoning, says what cannot be checked.",
                time_horizon="Whatever the question needs.",
                flip_conditions="A better argument or evidence.",
            ),
        )
    return list(_ROLE_PERSONAS)
