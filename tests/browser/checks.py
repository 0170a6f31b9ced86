"""Checks the browser tests run on a page: axe-core (bundled by axe-playwright-python) finds no
violation of any impact, minor included. (Console errors, 404s included, are recorded by the
``page`` fixture in page.js_errors.)"""

from axe_playwright_python.sync_playwright import Axe


def assert_accessible(page, name: str) -> None:
    results = Axe().run(page)
    found = [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(str(node["target"][0]) for node in violation["nodes"])
        for violation in results.response["violations"]
    ]
    assert found == [], f"{name}: axe found\n" + "\n".join(found)
