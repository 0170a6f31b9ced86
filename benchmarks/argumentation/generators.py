"""Seeded benchmark frameworks, written as apx so every solver reads the same file."""

import random


def debate_framework(size: int, seed: int) -> tuple[list[str], list[tuple[str, str]]]:
    """Debate-shaped: each new argument attacks one or two earlier ones.

    On top of that, size // 20 of those attacks are answered back (mutual
    attack pairs), the way two speakers rebut each other.
    """
    rng = random.Random(f"debate-{size}-{seed}")
    names = [f"a{index}" for index in range(size)]
    attacks: list[tuple[str, str]] = []
    for index in range(1, size):
        replies_to = 1 if rng.random() < 0.6 else 2
        for target in rng.sample(range(index), min(replies_to, index)):
            attacks.append((names[index], names[target]))
    for attacker, target in rng.sample(attacks, min(len(attacks), size // 20)):
        attacks.append((target, attacker))
    return names, sorted(set(attacks))


def random_framework(size: int, seed: int, average_degree: float) -> tuple[list[str], list[tuple[str, str]]]:
    """Erdos-Renyi: each ordered pair (self-attacks included) with probability degree / size."""
    rng = random.Random(f"random-{size}-{seed}-{average_degree}")
    names = [f"a{index}" for index in range(size)]
    probability = average_degree / size
    attacks = [(a, b) for a in names for b in names if rng.random() < probability]
    return names, attacks


def as_apx(arguments: list[str], attacks: list[tuple[str, str]]) -> str:
    lines = [f"arg({a})." for a in arguments] + [f"att({a},{b})." for a, b in attacks]
    return "\n".join(lines) + "\n"
