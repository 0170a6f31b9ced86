"""Which model serves which role.

The four generic roles (``types.Role``: persona, extraction, judging, synthesis) are listed in
settings.FAULTLINE_MODELS. A mode adds its own roles (the Analyst/Critic mode's "analyst" and
"critic", ...) by registering them with their default model per provider: the mode's spec row does
that (debates/modes.py), so no list of roles here or in the settings names a mode.

A role's model, first found wins:
1. settings.FAULTLINE_MODELS[provider][role] (the generic table, FAULTLINE_MODEL_<ROLE> already
   applied by the settings; a deployment or a test may add any role to it),
2. the environment's FAULTLINE_MODEL_<ROLE> (a registered role's override),
3. the registered role's default for the provider.
"""

from __future__ import annotations

import os
from types import MappingProxyType

from django.conf import settings

from gateways.llm.types import Role

_registered: dict[str, MappingProxyType] = {}


def model_role_register(name: str, *, defaults: dict[str, str]) -> None:
    """Register a mode's model role with its default model per provider ("anthropic", "local").
    Registering a name again replaces its defaults; a generic role's name is refused."""
    if name in Role._value2member_map_:
        raise ValueError(f"'{name}' is a generic role (gateways.llm.types.Role); a mode names its own")
    if not name or not name.isidentifier() or name != name.lower():
        raise ValueError(f"a model role is a lower-case name, not {name!r}")
    _registered[name] = MappingProxyType(dict(defaults))


def model_role_unregister(name: str) -> None:
    _registered.pop(name, None)


def model_roles() -> list[str]:
    """Every role a call may name: the generic four, then the registered ones in order."""
    return [role.value for role in Role] + list(_registered)


def model_role_name(role: Role | str) -> str:
    """The role's name, as the call ledger records it; ValueError for a role nobody registered."""
    name = role.value if isinstance(role, Role) else str(role)
    if name not in Role._value2member_map_ and name not in _registered:
        raise ValueError(f"unknown model role {name!r}: a mode registers its roles (debates/modes.py)")
    return name


def model_for(role: Role | str, *, provider: str | None = None) -> str:
    """The model that serves ``role`` on ``provider`` (default: the configured one)."""
    name = model_role_name(role)
    provider = provider or settings.FAULTLINE_LLM
    configured = settings.FAULTLINE_MODELS.get(provider, {})
    if name in configured:
        return configured[name]
    if override := os.environ.get(f"FAULTLINE_MODEL_{name.upper()}", ""):
        return override
    try:
        return _registered[name][provider]
    except KeyError:
        raise ValueError(f"model role {name!r} has no default model for the provider {provider!r}") from None


def models_of(provider: str) -> set[str]:
    """Every model the roles use on ``provider`` (the provider's status line names them)."""
    return {model_for(role, provider=provider) for role in model_roles()}
