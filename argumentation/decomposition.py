"""Graph decompositions of a region: strongly and weakly connected components."""

from collections.abc import Collection, Sequence


def strongly_connected_components(
    region: Collection[int],
    targets: Sequence[Sequence[int]],
) -> list[list[int]]:
    """SCCs of the attack graph inside `region`, attackers' components first.

    Iterative Tarjan, so deep chains do not hit Python's recursion limit.
    """
    inside = region if isinstance(region, (set, frozenset)) else set(region)
    index_of: dict[int, int] = {}
    lowlink: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    components: list[list[int]] = []
    counter = 0

    for root in region:
        if root in index_of:
            continue
        index_of[root] = lowlink[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(targets[root]))]
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in inside:
                    continue
                if successor not in index_of:
                    index_of[successor] = lowlink[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(targets[successor])))
                    advanced = True
                    break
                if successor in on_stack and index_of[successor] < lowlink[node]:
                    lowlink[node] = index_of[successor]
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if lowlink[node] < lowlink[parent]:
                    lowlink[parent] = lowlink[node]
            if lowlink[node] == index_of[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)

    # Tarjan emits a component only after everything it reaches (its targets),
    # so reversing gives an order in which attackers come before targets.
    components.reverse()
    return components


def weakly_connected_components(
    region: Collection[int],
    attackers: Sequence[Sequence[int]],
    targets: Sequence[Sequence[int]],
) -> list[set[int]]:
    """Groups of the region that no attack (in either direction) connects."""
    inside = region if isinstance(region, (set, frozenset)) else set(region)
    seen: set[int] = set()
    components = []
    for start in region:
        if start in seen:
            continue
        seen.add(start)
        component = {start}
        frontier = [start]
        while frontier:
            node = frontier.pop()
            for neighbour in (*attackers[node], *targets[node]):
                if neighbour in inside and neighbour not in seen:
                    seen.add(neighbour)
                    component.add(neighbour)
                    frontier.append(neighbour)
        components.append(component)
    return components
