from django.contrib import admin
from django.urls import include, path

from debates.views import accounts
from faultline import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("projects.urls")),
    path("", include("debates.urls")),
    path("", include("memory.urls")),
    path("", include("atlas.urls")),
    path("", include("personas.urls")),
]
