"""Lift the login throttle's lockouts and slowdowns: those of one user name, or all of them."""

from django.core.management.base import BaseCommand

from faultline.login_throttle import login_unlock


class Command(BaseCommand):
    help = "Lift login lockouts and slowdowns (faultline/login_throttle.py) for one user name, or for all."

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?", help="the user name as it was typed; none: everyone")

    def handle(self, *args, username=None, **options):
        lifted = login_unlock(username)
        self.stdout.write(f"Lifted {lifted} count{'s' if lifted != 1 else ''} of failed logins.")
