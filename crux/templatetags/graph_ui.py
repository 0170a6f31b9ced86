"""Display helpers for graph mode's partials. Nothing here marks text safe: model text in the map
stays autoescaped by the templates."""

from django import template

from crux.graph.layout import graph_layout

register = template.Library()


@register.filter
def graph_drawing(graph_event) -> dict:
    """Node and edge positions for the SVG of a graph_updated payload (the view's latest)."""
    if not isinstance(graph_event, dict):
        return graph_layout(None)
    return graph_layout(graph_event.get("graph"), graph_event.get("labels"))


# Why the argument map stopped growing (crux/graph/outcome.py, convergence_reason), in words.
SETTLED_WORDS = {
    "labelling_stable": "nothing on it changed side over the last rounds",
    "no_new_edges": "no new objection came up over the last rounds",
    "max_rounds": "it was redrawn as many times as a debate allows",
}


@register.filter
def map_settled(reason: str) -> str:
    return SETTLED_WORDS.get(str(reason or ""), str(reason or "").replace("_", " "))
