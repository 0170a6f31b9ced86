import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry loaded)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from faultline.request_limits import RequestBodyLimit, daphne_install  # noqa: E402
from faultline.routing import websocket_urlpatterns  # noqa: E402
from ops.heap import freeze_start_up_heap  # noqa: E402

# A body past the limit is refused as it arrives, before daphne or Django keeps any of it.
daphne_install()
application = ProtocolTypeRouter(
    {
        "http": RequestBodyLimit(django_asgi_app),
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

freeze_start_up_heap("web")
