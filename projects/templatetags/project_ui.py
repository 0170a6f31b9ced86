from django import template
from django.utils.safestring import mark_safe

from projects.markdown import render_markdown

register = template.Library()


@register.filter
def markdown(text: str) -> str:
    """A note's Markdown as sanitised HTML (projects/markdown.py)."""
    return mark_safe(render_markdown(text))  # noqa: S308  (nh3 has cleaned it)
