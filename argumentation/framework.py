"""Abstract argumentation frameworks (Dung, 1995): arguments and attacks.

Acceptance questions use these shortcuts, all exact:
- The grounded extension is the least complete extension, so skeptical
  acceptance under complete semantics is membership in it, and an argument
  the grounded labelling makes IN (OUT) is in every (no) complete, preferred
  and stable extension.
- Credulous acceptance is the same for complete and preferred semantics
  (every admissible set extends to a preferred one, which is complete).
- Complete, grounded and preferred semantics are directional: whether an
  argument is accepted depends only on the arguments that reach it by attack
  paths, so those queries run on that sub-framework.  Stable semantics is not
  directional (an odd cycle anywhere removes every stable extension), so it
  always looks at the whole framework.
"""

from collections.abc import Hashable, Iterable, Iterator

from .enumeration import ExtensionEnumerator
from .grounded import grounded_in_and_out
from .semantics import Label, Semantics

Argument = Hashable
Extension = frozenset


class ArgumentationFramework:
    """A set of arguments and an attack relation between them.

    Arguments can be any hashable values (strings in practice).  An argument
    may attack itself.  Extensions are frozensets of arguments.
    """

    def __init__(
        self,
        arguments: Iterable[Argument],
        attacks: Iterable[tuple[Argument, Argument]],
    ) -> None:
        # dict.fromkeys keeps the first-seen order, so output is deterministic.
        self.arguments: tuple[Argument, ...] = tuple(dict.fromkeys(arguments))
        self._position = {argument: index for index, argument in enumerate(self.arguments)}
        attack_set = set()
        for attacker, target in attacks:
            if attacker not in self._position or target not in self._position:
                raise ValueError(f"attack ({attacker!r}, {target!r}) names an argument that is not in the framework")
            attack_set.add((attacker, target))
        self.attacks: frozenset[tuple[Argument, Argument]] = frozenset(attack_set)

        attackers: list[list[int]] = [[] for _ in self.arguments]
        targets: list[list[int]] = [[] for _ in self.arguments]
        for attacker, target in attack_set:
            attackers[self._position[target]].append(self._position[attacker])
            targets[self._position[attacker]].append(self._position[target])
        self._attackers = tuple(tuple(sorted(a)) for a in attackers)
        self._targets = tuple(tuple(sorted(t)) for t in targets)
        self._grounded: tuple[frozenset[int], frozenset[int]] | None = None

    def __repr__(self) -> str:
        return f"<ArgumentationFramework: {len(self.arguments)} arguments, {len(self.attacks)} attacks>"

    def __contains__(self, argument: object) -> bool:
        return argument in self._position

    def attackers_of(self, argument: Argument) -> frozenset[Argument]:
        return frozenset(self.arguments[a] for a in self._attackers[self._index(argument)])

    def targets_of(self, argument: Argument) -> frozenset[Argument]:
        return frozenset(self.arguments[t] for t in self._targets[self._index(argument)])

    def ancestors_of(self, argument: Argument) -> frozenset[Argument]:
        """The argument and every argument with an attack path to it."""
        start = self._index(argument)
        seen = {start}
        frontier = [start]
        while frontier:
            for attacker in self._attackers[frontier.pop()]:
                if attacker not in seen:
                    seen.add(attacker)
                    frontier.append(attacker)
        return frozenset(self.arguments[a] for a in seen)

    def restricted_to(self, arguments: Iterable[Argument]) -> "ArgumentationFramework":
        """The sub-framework on `arguments` with the attacks among them."""
        keep = set(arguments)
        for argument in keep:
            self._index(argument)
        return ArgumentationFramework(
            (a for a in self.arguments if a in keep),
            ((a, b) for a, b in self.attacks if a in keep and b in keep),
        )

    def grounded_extension(self) -> frozenset[Argument]:
        accepted, _ = self._grounded_indices()
        return frozenset(self.arguments[a] for a in accepted)

    def grounded_labelling(self) -> dict[Argument, Label]:
        accepted, defeated = self._grounded_indices()
        return {
            argument: Label.IN if index in accepted else Label.OUT if index in defeated else Label.UNDEC
            for index, argument in enumerate(self.arguments)
        }

    def labelling_of(self, extension: Iterable[Argument]) -> dict[Argument, Label]:
        """IN for members, OUT for what they attack, UNDEC for the rest.

        This is the labelling that corresponds to a complete extension.
        """
        members = {self._index(argument) for argument in extension}
        defeated = {t for a in members for t in self._targets[a]}
        return {
            argument: Label.IN if index in members else Label.OUT if index in defeated else Label.UNDEC
            for index, argument in enumerate(self.arguments)
        }

    def iter_extensions(self, semantics: Semantics) -> Iterator[frozenset[Argument]]:
        """Every extension under `semantics`, lazily, each exactly once."""
        if semantics is Semantics.GROUNDED:
            yield self.grounded_extension()
            return
        enumerator = ExtensionEnumerator(self._attackers, self._targets, semantics)
        for extension in enumerator.extensions():
            yield frozenset(self.arguments[a] for a in extension)

    def extensions(self, semantics: Semantics) -> list[frozenset[Argument]]:
        """Every extension under `semantics` (exact; may be exponentially many)."""
        return list(self.iter_extensions(semantics))

    def some_extension(self, semantics: Semantics) -> frozenset[Argument] | None:
        """One extension, or None when there is none (only possible for stable)."""
        return next(self.iter_extensions(semantics), None)

    def credulously_accepted(self, argument: Argument, semantics: Semantics) -> bool:
        """Is the argument in at least one extension?"""
        label = self.grounded_labelling()[self._require(argument)]
        if semantics is Semantics.STABLE:
            return any(argument in e for e in self.iter_extensions(semantics))
        if label is not Label.UNDEC or semantics is Semantics.GROUNDED:
            return label is Label.IN
        upstream = self.restricted_to(self.ancestors_of(argument))
        return any(argument in e for e in upstream.iter_extensions(Semantics.PREFERRED))

    def skeptically_accepted(self, argument: Argument, semantics: Semantics) -> bool:
        """Is the argument in every extension?

        Stable semantics follows ICCMA: when there is no stable extension at
        all, every argument is (vacuously) skeptically accepted.
        """
        label = self.grounded_labelling()[self._require(argument)]
        if semantics is Semantics.STABLE:
            # all() of no extensions is True: the ICCMA answer.
            return all(argument in e for e in self.iter_extensions(semantics))
        if label is not Label.UNDEC or semantics in (Semantics.GROUNDED, Semantics.COMPLETE):
            return label is Label.IN
        upstream = self.restricted_to(self.ancestors_of(argument))
        return all(argument in e for e in upstream.iter_extensions(Semantics.PREFERRED))

    def _require(self, argument: Argument) -> Argument:
        self._index(argument)
        return argument

    def _index(self, argument: Argument) -> int:
        try:
            return self._position[argument]
        except KeyError:
            raise KeyError(f"{argument!r} is not an argument of this framework") from None

    def _grounded_indices(self) -> tuple[frozenset[int], frozenset[int]]:
        if self._grounded is None:
            accepted, defeated = grounded_in_and_out(range(len(self.arguments)), self._attackers, self._targets)
            self._grounded = frozenset(accepted), frozenset(defeated)
        return self._grounded
