"""Checks the browser tests run on a page: axe-core (bundled by axe-playwright-python) finds no
violation of any impact, minor included. (Console errors, 404s included, are recorded by the
``page`` fixture in page.js_errors.)"""

from axe_playwright_python.sync_playwright import Axe

# Animations that end (a crux card dealt in, fading from transparent) are waited for: axe reads
# colours as they are drawn, and a card caught half faded in has text of too little contrast.
# Those that never end (the typing dots, the live pulse) do not change what is read.
FINITE_ANIMATIONS_DONE = """() => Promise.all(document.getAnimations()
    .filter(animation => animation.effect && animation.effect.getComputedTiming().endTime !== Infinity)
    .map(animation => animation.finished.catch(() => null)))"""


def assert_accessible(page, name: str) -> None:
    page.evaluate(FINITE_ANIMATIONS_DONE)
    results = Axe().run(page)
    found = [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(str(node["target"][0]) for node in violation["nodes"])
        for violation in results.response["violations"]
    ]
    assert found == [], f"{name}: axe found\n" + "\n".join(found)
