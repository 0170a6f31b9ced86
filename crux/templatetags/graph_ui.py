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
