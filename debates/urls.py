from django.urls import path

from debates import views

urlpatterns = [
    path("", views.home, name="home"),
]
