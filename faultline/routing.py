"""Websocket routes of every app, gathered in one place for the ASGI router."""

from django.urls import path

from debates.consumers import DebateConsumer

websocket_urlpatterns: list = [
    path("ws/debates/<uuid:debate_id>/", DebateConsumer.as_asgi()),
]
