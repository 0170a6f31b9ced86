"""A mode's own model roles: registered with their defaults by its spec row, overridable by
FAULTLINE_MODEL_<ROLE>, named in no list of the settings or the Role enum."""

import copy

import pytest

from gateways.llm import gateway
from gateways.llm.roles import model_role_register, model_role_unregister, model_roles
from gateways.llm.types import Role


@pytest.fixture
def anthropic(settings):
    settings.FAULTLINE_LLM = "anthropic"
    return settings


def test_the_modes_roles_have_their_default_models_per_provider(anthropic):
    assert gateway.model_for("analyst") == "claude-sonnet-5-5"
    assert gateway.model_for("critic") == "claude-opus-5-1"
    assert gateway.model_for("architect") == "claude-sonnet-5-5"
    assert gateway.model_for("reviewer") == "claude-opus-5-1"
    anthropic.FAULTLINE_LLM = "local"
    assert gateway.model_for("critic") == "SmolLM2-135M-Instruct"


def test_the_environment_overrides_a_modes_role_and_the_settings_table_overrides_both(anthropic, monkeypatch):
    monkeypatch.setenv("FAULTLINE_MODEL_CRITIC", "claude-critic-from-env")
    assert gateway.model_for("critic") == "claude-critic-from-env"
    assert gateway.model_for("analyst") == "claude-sonnet-5-5"

    models = copy.deepcopy(anthropic.FAULTLINE_MODELS)
    models["anthropic"]["critic"] = "claude-critic-from-settings"
    anthropic.FAULTLINE_MODELS = models
    assert gateway.model_for("critic") == "claude-critic-from-settings"


def test_a_registered_role_is_known_until_unregistered_and_an_unknown_one_is_refused(anthropic):
    with pytest.raises(ValueError, match="unknown model role 'scribe'"):
        gateway.model_for("scribe")
    model_role_register("scribe", defaults={"anthropic": "claude-scribe", "local": "SmolLM2-135M-Instruct"})
    try:
        assert gateway.model_for("scribe") == "claude-scribe" and "scribe" in model_roles()
    finally:
        model_role_unregister("scribe")
    assert "scribe" not in model_roles()


def test_a_mode_may_not_take_a_generic_roles_name():
    with pytest.raises(ValueError, match="generic role"):
        model_role_register("synthesis", defaults={"anthropic": "claude-x"})
    assert gateway.model_for(Role.SYNTHESIS)  # still the settings' own
