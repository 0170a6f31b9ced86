"""When is a point the Critic assesses the same point as one the ledger holds? Only when it says
the same thing: negation, numbers, quantifiers and hedges are part of what a point says, and a
point about another subject is another point, however alike the wording. Cases in plain English,
each pair read both ways."""

import pytest

from orchestration.modes.analyst_critic.consensus import negates, same_point

RESTATEMENTS = [
    # the passive voice, words moved round
    (
        "Index funds beat most active managers over ten years",
        "Over ten years, most active managers are beaten by index funds",
    ),
    ("The vendor delayed the database migration", "The database migration was delayed by the vendor"),
    ("Startups should avoid microservices early on", "Early on, startups should avoid microservices"),
    # case, punctuation, a list number, a contraction, British spelling, inflection
    ("Rust is safer than C for systems code.", "rust is safer than C for systems code"),
    ("2. The team should prioritise the security review", "The team should prioritize the security review"),
    ("Rust isn't safer than Go", "Rust is not safer than Go"),
    ("Most savers cannot pick winning stocks", "Most savers can't pick winning stocks"),
    ("Rebalancing the portfolio helps", "Rebalanced portfolios help"),
    # a number in digits or in words, a rate said three ways
    ("Costs fell by ten percent last year", "Costs fell by 10% last year"),
    ("The service handles 5,000 requests per second", "The service handles 5000 requests a second"),
    ("Rebalancing once a year is enough", "Rebalancing once every year is enough."),
    ("Rebalance the portfolio once a year", "Rebalance the portfolio annually"),
    # the same quantifier or modal in other words
    ("Every service needs its own database", "Each service needs its own database"),
    ("Microservices add a lot of operational overhead", "Microservices add lots of operational overhead"),
    ("Teams need to write tests before merging", "Teams have to write tests before merging"),
]

NEGATIONS = [
    ("Rust is safer", "Rust is not safer"),
    ("Rust is safer than C", "Rust isn't safer than C"),
    ("Microservices are worth it for a small team", "Microservices are never worth it for a small team"),
    ("You can ship this release with the current tests", "You can't ship this release with the current tests"),
    ("Savers can time the market", "No saver can time the market"),
    ("The cache needs invalidation on every write", "The cache does not need invalidation on every write"),
    ("It is likely that rates fall next year", "It is unlikely that rates fall next year"),
    ("All of our tests are flaky", "Not all of our tests are flaky"),
    ("The migration can be done without downtime", "The migration can be done with downtime"),
    # denied for every case
    ("Everybody reads the release notes", "Nobody reads the release notes"),
    ("Every service needs its own database", "No service needs its own database"),
]

OTHER_NUMBERS = [
    ("Cut costs by 10%", "Cut costs by 30%"),
    ("Cut costs by ten percent", "Cut costs by thirty percent"),
    ("Ship the beta within two weeks", "Ship the beta within three weeks"),
    ("The service needs at least three replicas", "The service needs three replicas"),
    ("Costs doubled after the migration", "Costs tripled after the migration"),
    ("Prices rose sharply in 2023", "Prices rose sharply in 2024"),
    ("Rebalance once a year", "Rebalance twice a year"),
    ("The cluster handles 5,000 requests a second", "The cluster handles 50,000 requests a second"),
    ("Fees take 1.5% of returns", "Fees take 15% of returns"),
]

OTHER_QUANTIFIERS = [
    ("All savers should hold bonds", "Some savers should hold bonds"),
    ("Most startups fail in their first year", "Few startups fail in their first year"),
    ("Only senior engineers should deploy to production", "Senior engineers should deploy to production"),
    ("Tests always catch regressions", "Tests sometimes catch regressions"),
    ("Not all of our tests are flaky", "Some of our tests are flaky"),
    ("Many users churn after a month", "Most users churn after a month"),
]

HEDGES = [
    ("Index funds beat active managers", "Index funds probably beat active managers"),
    ("Teams must write tests", "Teams should write tests"),
    ("The cache will fail under load", "The cache could fail under load"),
    ("Rust is safer", "Rust is arguably safer"),
    ("The rewrite pays for itself", "The rewrite may pay for itself"),
]

OTHER_SUBJECTS = [
    ("Plan the database migration before the release", "Plan the frontend migration before the release"),
    ("Rust is safer than C", "C is safer than Rust"),
    ("Index funds beat active managers", "Active managers beat index funds"),
    ("Index funds are beaten by active managers", "Index funds beat active managers"),
    ("Rust is safer", "Rust is safer for embedded code"),
    ("Rust has a garbage collector for memory management", "Rust lacks a garbage collector for memory management"),
    ("Fees compound into a large drag on returns", "Fees compound into a small drag on returns"),
    ("Hire a senior engineer first", "Hire a junior engineer first"),
]

# Said again in other words (a synonym): a new point rather than a risked merge. Counting it twice
# lowers the score; folding a different claim into an agreed one would fake an agreement.
SYNONYMS = [
    ("Index funds beat most active managers", "Index funds outperform most active managers"),
    ("Fees are a large drag on returns", "Fees are a big drag on returns"),
]

TEMPLATED = [
    f"The {team} team needs its own on-call rotation"
    for team in ("database", "frontend", "billing", "search", "payments", "mobile")
]


def both_ways(pairs):
    return [*pairs, *[(b, a) for a, b in pairs]]


@pytest.mark.parametrize(("earlier", "later"), both_ways(RESTATEMENTS))
def test_a_restatement_is_the_same_point(earlier, later):
    assert same_point(earlier, later)
    assert not negates(earlier, later)


@pytest.mark.parametrize(("earlier", "later"), both_ways(NEGATIONS))
def test_a_negation_is_never_the_same_point_but_its_negation(earlier, later):
    assert not same_point(earlier, later)
    assert negates(earlier, later)


@pytest.mark.parametrize(
    ("earlier", "later"), both_ways(OTHER_NUMBERS + OTHER_QUANTIFIERS + HEDGES + OTHER_SUBJECTS + SYNONYMS)
)
def test_another_number_quantifier_hedge_or_subject_is_another_point(earlier, later):
    assert not same_point(earlier, later)
    assert not negates(earlier, later)


def test_templated_points_on_different_teams_stay_distinct():
    for earlier in TEMPLATED:
        assert [later for later in TEMPLATED if same_point(earlier, later)] == [earlier]
