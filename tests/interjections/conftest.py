from tests.orchestrator.conftest import make_persona, new_debate, personas, scripted_api  # noqa: F401
