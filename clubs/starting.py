"""Starting a club: a signed-in person names it, picks its house rule and becomes its admin.

One function (``start_club``) for the page and the API, so both write the same rows and the
same audit entries in one transaction.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.module_loading import import_string
from django.utils.text import slugify

from clubs.models import AuditAction, AuditEntry, Club, HouseRuleRecord, Member, MemberRole
from clubs.models.club import TIME_ZONES
from clubs.permissions import forget_roles
from houserules.sync import ensure_builtin_house_rules

DEFAULT_TIME_ZONE = "Europe/London"
# Zones a club in the places mah-jong clubs meet is most likely to pick, shown first.
COMMON_ZONES = ("Europe/London", "Europe/Dublin", "Europe/Paris", "America/New_York",
                "America/Toronto", "America/Los_Angeles", "Australia/Sydney",
                "Pacific/Auckland", "Asia/Hong_Kong", "Asia/Singapore")


class ClubTaken(Exception):
    """The name or the short address is already another club's: ``field`` says which."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def founder_name(user) -> str:
    """What the club calls its founder until they say otherwise."""
    full = user.get_full_name().strip() if hasattr(user, "get_full_name") else ""
    if full:
        return full[:80]
    login = user.get_username()
    return (login.split("@")[0] or login)[:80]


def builtin_house_rules():
    """The engine's built-in house rules as records a club can play under; on a new service's
    empty database, made here first (the same sync ``load_demo`` runs)."""
    records = HouseRuleRecord.objects.filter(club__isnull=True).order_by("name")
    if not records.exists():
        ensure_builtin_house_rules()
    return records


def taken_problem(name: str, slug: str, exclude: Club | None = None) -> ClubTaken | None:
    others = Club.objects.exclude(pk=exclude.pk) if exclude is not None else Club.objects
    if others.filter(name__iexact=name).exists():
        return ClubTaken("name", f"There is already a club called {name!r}: add your town "
                                 "to the name to tell them apart.")
    if others.filter(slug=slug).exists():
        return ClubTaken("slug", f"The address /clubs/{slug}/ is taken: choose another "
                                 "short name.")
    return None


class StartRefused(Exception):
    """This login may not start a club yet (``settings.CLUB_START_CHECK`` says why)."""


def start_refusal(user) -> str | None:
    """The sentence refusing ``user`` a new club, or None. The check is named by a setting
    (accounts', which clubs cannot import): a login whose email waits to be confirmed."""
    check = getattr(settings, "CLUB_START_CHECK", "")
    return import_string(check)(user) if check else None


def start_club(user, *, name: str, slug: str, time_zone: str = DEFAULT_TIME_ZONE,
               house_rule: HouseRuleRecord | None = None, published: bool = False,
               display_name: str = "") -> Club:
    """Create the club with ``user`` as its first admin, audited; ``ClubTaken`` if the name or
    slug is another club's (checked again under the unique constraints)."""
    if refused := start_refusal(user):
        raise StartRefused(refused)
    display_name = (display_name or "").strip() or founder_name(user)
    if problem := taken_problem(name, slug):
        raise problem
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, time_zone=time_zone,
                                       default_house_rule=house_rule, published=published)
            member = Member.objects.create(club=club, user=user, display_name=display_name,
                                           role=MemberRole.ADMIN)
            AuditEntry.objects.create(
                club=club, user=user, action=AuditAction.CREATE, object_type="club",
                object_id=str(club.pk), note="Club started",
                after={"name": name, "slug": slug, "time_zone": time_zone,
                       "house_rule": house_rule.slug if house_rule else None,
                       "published": published, "admin": display_name})
            AuditEntry.objects.create(
                club=club, user=user, action=AuditAction.CREATE, object_type="member",
                object_id=str(member.pk), note=f"{display_name} started the club as its admin",
                after={"display_name": display_name,
                                                 "role": MemberRole.ADMIN})
    except IntegrityError:  # another club took the name or slug a moment ago
        raise taken_problem(name, slug) or ClubTaken(
            "slug", "That club was started a moment ago: choose another name.") from None
    forget_roles(user)
    return club


def zone_choices() -> list[tuple[str, str]]:
    rest = sorted(TIME_ZONES - set(COMMON_ZONES))
    return [(z, z.replace("_", " ")) for z in (*COMMON_ZONES, *rest) if z in TIME_ZONES]


class StartClubForm(forms.Form):
    name = forms.CharField(max_length=120, label="The club's name",
                           help_text="As members know it, e.g. Jade Dragon Mah-Jong Club.")
    slug = forms.SlugField(
        max_length=60, required=False, label="Short name for its address",
        help_text="Letters, digits and hyphens: the club's pages will be at /clubs/<short name>/. "
                  "Leave empty to make one from the name.")
    time_zone = forms.ChoiceField(choices=(), initial=DEFAULT_TIME_ZONE, label="Time zone",
                                  help_text="Where the club plays: the date of a club night "
                                            "is read there.")
    house_rule = forms.ModelChoiceField(
        queryset=HouseRuleRecord.objects.none(), label="The rules you play",
        help_text="You can copy and adjust them later (limit, payments, flowers).")
    published = forms.BooleanField(
        required=False, label="Publish our results for anyone to read",
        help_text="Nights, score sheets and league tables, read-only. Leave unticked to keep "
                  "them to the club's members.")
    display_name = forms.CharField(max_length=80, required=False, label="Your name at the club",
                                   help_text="How the score sheets will name you.")

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["time_zone"].choices = zone_choices()
        self.fields["house_rule"].queryset = builtin_house_rules()
        bmja = self.fields["house_rule"].queryset.filter(slug="bmja").first()
        if bmja is not None:
            self.fields["house_rule"].initial = bmja.pk
        if user is not None and not self.is_bound:
            self.fields["display_name"].initial = founder_name(user)

    def clean(self):
        data = super().clean()
        name = (data.get("name") or "").strip()
        if data.get("slug"):
            data["slug"] = data["slug"].lower()
        if name and not data.get("slug"):
            data["slug"] = slugify(name)[:60].strip("-")
            if not data["slug"]:
                self.add_error("slug", "Give a short name in letters and digits for the "
                                       "club's address.")
        if name and data.get("slug") and (problem := taken_problem(name, data["slug"])):
            self.add_error(problem.field, problem.message)
        return data

    def save(self) -> Club:
        data = self.cleaned_data
        try:
            return start_club(self.user, name=data["name"].strip(), slug=data["slug"],
                              time_zone=data["time_zone"], house_rule=data["house_rule"],
                              published=data["published"], display_name=data["display_name"])
        except ClubTaken as taken:
            self.add_error(taken.field, taken.message)
            raise
