from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from debates.views import accounts
from faultline import health


class FaviconRedirect(RedirectView):
    """The site's icon, under its static name (read at request time: in production the name is
    the collected, hashed one)."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.svg")


urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    # Pages name their icon (base.html); a browser asks for /favicon.ico on the others (the admin's).
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/delete/", accounts.account_delete_page, name="account_delete"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("projects.urls")),
    path("", include("debates.urls")),
    path("", include("memory.urls")),
    path("", include("atlas.urls")),
    path("", include("personas.urls")),
]
