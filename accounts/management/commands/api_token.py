"""manage.py api_token LOGIN --name NAME | --list | --revoke ID: personal API tokens from the
shell (a server's own scripts, or a member who cannot reach the page)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts import tokens
from accounts.models import ApiToken


class Command(BaseCommand):
    help = "Make (printed once), list or revoke a login's personal API tokens."

    def add_arguments(self, parser):
        parser.add_argument("login", help="The login (its email, or its login name).")
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--name", help="Make a token named after the program using it.")
        action.add_argument("--list", action="store_true", help="List the login's tokens.")
        action.add_argument("--revoke", type=int, metavar="ID", help="Revoke token ID.")

    def handle(self, *args, login, name=None, list=False, revoke=None, **options):
        user = get_user_model().objects.filter(username__iexact=login.strip()).first()
        if user is None:
            raise CommandError(f"No login {login!r}: give it as the login page takes it.")
        if name is not None:
            try:
                token, secret = tokens.issue(user, name)
            except tokens.TokenRefused as refused:
                raise CommandError(str(refused)) from None
            self.stderr.write(f"Token {token.pk} “{token.name}” for {user.get_username()}; "
                              "shown only now:")
            self.stdout.write(secret)
        elif list:
            for token in ApiToken.objects.filter(user=user):
                self.stdout.write(f"{token.pk}\t{token.prefix}…\t{token.created:%Y-%m-%d}\t"
                                  f"{token.name}")
        else:
            token = ApiToken.objects.filter(user=user, pk=revoke).first()
            if token is None:
                raise CommandError(f"{user.get_username()} has no token {revoke}: see --list.")
            tokens.revoke(token, None)
            self.stderr.write(f"Token {revoke} “{token.name}” revoked.")
