# The orchestrator tests' fixtures: personas, a scripted fake Messages API, a debate factory.
from tests.orchestrator.conftest import new_debate, personas, scripted_api  # noqa: F401
