"""The plain roles of the Analyst/Critic and Collaborate modes, for a debate without a hand of personas."""

from personas.models import Persona

_ROLE_PERSONAS = {
    "analyst": (
        "Analyst",
        "A careful analyst who answers with concrete, reasoned points and refines them on criticism.",
    ),
    "critic": ("Critic", "A fair, exacting critic who accepts what holds and says precisely what does not, and why."),
}


# The Collaborate mode's plain roles.
_COLLABORATION_PERSONAS = {
    "architect": (
        "Architect",
        "A pragmatic architect who shapes a clear structure and a concrete plan that will scale.",
    ),
    "reviewer": (
        "Reviewer",
        "A thorough reviewer who looks for edge cases, failure modes and security holes, and how to close them.",
    ),
}


def role_personas(mode: str = "analyst_critic") -> list[str]:
    """The persona ids of the plain roles of ``mode``: the Analyst and Critic, or (collaborate) the
    Architect and Reviewer; created the first time they are needed."""
    roles = _COLLABORATION_PERSONAS if mode == "collaborate" else _ROLE_PERSONAS
    what = "Architect/Reviewer collaboration" if mode == "collaborate" else "Analyst/Critic debate"
    for persona_id, (name, personality) in roles.items():
        Persona.objects.get_or_create(
            persona_id=persona_id,
            owner=None,  # shared, like the seed
            defaults=dict(
                name=name,
                version="2026-11-24T00:00:00Z",
                tagline=f"The {name} of an {what}",
                personality=personality,
                bias="None declared.",
                stakes="Getting the answer right.",
                epistemology="Weighs evidence and reasoning, says what cannot be checked.",
                time_horizon="Whatever the question needs.",
                flip_conditions="A better argument or evidence.",
            ),
        )
    return list(roles)
