"""The client's address, as only a trusted proxy can set it.

Daphne runs without --proxy-headers (in the image and under the launcher alike): its
--proxy-headers takes the left-most X-Forwarded-For, which the client writes itself. Here the
address is the right-most hop of X-Forwarded-For (and the connection's own peer after it) that is
not one of FAULTLINE_TRUSTED_PROXIES: a proxy appends the address it saw, so everything left of
the last trusted proxy's entry may be invented, and nothing right of it can be. With no trusted
proxies X-Forwarded-For is ignored and the address is the connection's peer.

The middleware puts that address in REMOTE_ADDR, first thing, so the login throttle, the sign-up
rate limit and the logs all read the same one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(entries: Iterable[str]) -> list[Network]:
    """FAULTLINE_TRUSTED_PROXIES' entries (addresses or CIDR ranges) as networks; ValueError
    naming the first one that is neither."""
    networks = []
    for entry in entries:
        if entry.strip():
            try:
                networks.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                raise ValueError(f"{entry.strip()!r} is not an address or a range like 10.0.0.0/8") from None
    return networks


def _address(text: str):
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def client_address(peer: str, forwarded_for: str, trusted: list[Network]) -> str:
    """The right-most untrusted hop of ``forwarded_for`` + ``peer``."""
    peer_address = _address(peer or "")
    if peer_address is None or not any(peer_address in network for network in trusted):
        return peer
    nearest = peer_address
    for hop in reversed([hop for hop in (forwarded_for or "").split(",") if hop.strip()]):
        address = _address(hop)
        if address is None:
            # Not an address: only a trusted proxy wrote right of here, so the one nearest is
            # the best that is known.
            return str(nearest)
        if not any(address in network for network in trusted):
            return str(address)
        nearest = address
    return str(nearest)


class ClientAddressMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.trusted = trusted_networks(settings.FAULTLINE_TRUSTED_PROXIES)

    def __call__(self, request):
        request.META["REMOTE_ADDR"] = client_address(
            request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR", ""), self.trusted
        )
        return self.get_response(request)
