"""Websocket routes of every app, gathered in one place for the ASGI router."""

websocket_urlpatterns: list = []
