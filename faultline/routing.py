"""Websocket routes of every app, gathered in one place for the ASGI router."""

from django.urls import path

from debates.consumers import DebateConsumer
from debates.side_consumers import SidesConsumer

websocket_urlpatterns: list = [
    path("ws/debates/<uuid:debate_id>/", DebateConsumer.as_asgi()),
    path("ws/debates/<uuid:debate_id>/sides/", SidesConsumer.as_asgi()),
]
