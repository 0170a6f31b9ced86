"""Checks the browser tests run on a page: axe-core (bundled by axe-playwright-python) finds
nothing critical or serious."""

from axe_playwright_python.sync_playwright import Axe

BLOCKING_IMPACTS = {"critical", "serious"}


def assert_accessible(page, name: str) -> None:
    results = Axe().run(page)
    blocking = [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(str(node["target"][0]) for node in violation["nodes"])
        for violation in results.response["violations"]
        if violation["impact"] in BLOCKING_IMPACTS
    ]
    assert blocking == [], f"{name}: axe found\n" + "\n".join(blocking)
