"""Steps the browser tests take again and again, as a user would take them."""

import re


def log_in(page, base_url: str, username: str, password: str) -> None:
    """Log in on the login page; the setup page (/debates/new/) is where one lands."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/debates/new/$"))


def money_pair_pick(page) -> None:
    """On the setup page, pick the Money deck and put its first two voices in the hand."""
    money = page.eval_on_selector("#id_deck", "s => [...s.options].find(o => o.text.startsWith('Money')).value")
    page.select_option("#id_deck", money)
    page.locator("#hand .persona-card", has_text="The Hard-Money Maximalist").wait_for()
    for name in ["The Hard-Money Maximalist", "The Central-Bank Institutionalist"]:
        page.locator("#hand .persona-card", has_text=name).click()
