from django.shortcuts import render

from personas.models import Deck


def home(request):
    decks = Deck.objects.prefetch_related("personas")
    return render(request, "debates/home.html", {"decks": decks})
