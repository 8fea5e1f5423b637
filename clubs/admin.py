"""The Django admin: every club record, with list views and filters a club secretary can use."""

from django.contrib import admin
from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce

from clubs.admin_filters import ClubFilter, EstimatedCountPaginator, SeasonFilter, club_filter
from clubs.admin_read_only import ReadOnlyAdmin
from clubs.models import (
    AuditEntry,
    Club,
    ClubSession,
    Hand,
    HandEntry,
    HandResult,
    Member,
    Season,
    Seat,
    Table,
)


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    fields = ["display_name", "user", "role", "active"]
    raw_id_fields = ["user"]


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "published", "default_house_rule", "member_count"]
    list_filter = ["published"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SeasonInline, MemberInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_members=Count("members"))

    @admin.display(description="members", ordering="_members")
    def member_count(self, club: Club) -> int:
        return club._members


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "role", "active", "user"]
    list_filter = [ClubFilter, "role", "active"]
    search_fields = ["display_name", "user__username"]
    list_select_related = ["club", "user"]
    raw_id_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start", "end"]
    list_filter = [ClubFilter]
    list_select_related = ["club"]
    search_fields = ["name"]
    date_hierarchy = "start"


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(ClubSession)
class ClubSessionAdmin(admin.ModelAdmin):
    list_display = ["date", "club", "season", "house_rule_version", "status", "table_count"]
    list_filter = [ClubFilter, SeasonFilter, "status"]
    date_hierarchy = "date"
    search_fields = ["notes", "club__name"]
    list_select_related = ["club", "season__club", "house_rule_version__record"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    inlines = [TableInline]

    def get_queryset(self, request):
        # A subquery per night shown, not a GROUP BY over every night before the page is cut.
        tables = (Table.objects.filter(session=OuterRef("pk")).order_by()
                  .values("session").annotate(n=Count("id")).values("n"))
        return super().get_queryset(request).annotate(
            _tables=Coalesce(Subquery(tables), 0))

    @admin.display(description="tables", ordering="_tables")
    def table_count(self, session: ClubSession) -> int:
        return session._tables


class RecomputesTable:
    """Hands and seats edited here bypass the recording service: rebuild the table's derived
    results (its stored rows, the players named on them and the league's nights)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        self._recompute(self._table_of(form.instance))

    def delete_model(self, request, obj):
        table = self._table_of(obj)
        super().delete_model(request, obj)
        self._recompute(table)

    def delete_queryset(self, request, queryset):
        tables = {self._table_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for table in tables:
            self._recompute(table)

    @staticmethod
    def _recompute(table) -> None:
        from clubs.recording import recompute_table

        recompute_table(table)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "starting_wind", "member", "guest_name"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "number", "players"]
    list_filter = [club_filter("session__club_id"), "session__date"]
    list_select_related = ["session__club"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ["-id"]
    inlines = [SeatInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("member"))
        )

    @admin.display(description="players")
    def players(self, table: Table) -> str:
        return ", ".join(seat.name for seat in table.seats.all())

    def save_related(self, request, form, formsets, change):
        # A seat given to another member or renamed here: the stored rows and the league name
        # the players, so they are rebuilt as RecomputesTable does.
        super().save_related(request, form, formsets, change)
        if change:
            RecomputesTable._recompute(form.instance)


@admin.register(Seat)
class SeatAdmin(RecomputesTable, admin.ModelAdmin):
    list_display = ["name", "table", "position", "starting_wind", "member", "guest_name"]
    list_filter = [club_filter("table__session__club_id"), "starting_wind"]
    search_fields = ["member__display_name", "guest_name"]
    list_select_related = ["table__session__club", "member__club"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ["-id"]
    raw_id_fields = ["table", "member"]

    @staticmethod
    def _table_of(seat: Seat) -> Table:
        return seat.table


class HandEntryInline(admin.TabularInline):
    model = HandEntry
    extra = 0
    fields = ["seat", "seat_wind", "kind", "data"]
    raw_id_fields = ["seat"]


@admin.register(Hand)
class HandAdmin(RecomputesTable, admin.ModelAdmin):
    list_display = [
        "number",
        "table",
        "prevailing_wind",
        "dealer",
        "winner",
        "discarder",
        "win_source",
        "draw",
        "goulash",
        "voided",
    ]
    list_filter = [
        club_filter("table__session__club_id"),
        "prevailing_wind",
        "draw",
        "goulash",
        "voided",
        "win_source",
    ]
    list_select_related = [
        "table__session__club",
        "dealer__member",
        "winner__member",
        "discarder__member",
    ]
    # Newest first by the key's index: the model's (table, number) order, or a second full
    # count, cost seconds at a million hands.
    ordering = ["-id"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    readonly_fields = ["created_by", "created", "updated"]
    raw_id_fields = ["table", "dealer", "winner", "discarder"]
    inlines = [HandEntryInline]

    @staticmethod
    def _table_of(hand: Hand) -> Table:
        return hand.table


@admin.register(HandEntry)
class HandEntryAdmin(RecomputesTable, admin.ModelAdmin):
    list_display = ["__str__", "seat", "seat_wind", "kind"]
    list_filter = [club_filter("hand__table__session__club_id"), "kind", "seat_wind"]
    list_select_related = ["hand__table__session__club", "seat__member"]
    ordering = ["-id"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    raw_id_fields = ["hand", "seat"]

    @staticmethod
    def _table_of(entry: HandEntry) -> Table:
        return entry.hand.table


@admin.register(HandResult)
class HandResultAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """Read-only: results are derived from the entries and rebuilt, never edited."""

    deletable = True

    list_display = ["hand", "seat", "member", "seat_wind", "score", "net", "running_total"]
    list_filter = [ClubFilter, SeasonFilter, "seat_wind"]
    list_select_related = ["hand__table__session__club", "seat__member", "member__club"]
    # The model's order (hand, then the seat's position) sorts a million rows through a join.
    ordering = ["-id"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator

    def get_ordering(self, request):
        # Filtered by club (and season), in the order of the index those filters read
        # (result_by_club_season): newest first by the key would walk the whole table
        # backwards to find one season's rows (1.9 s at a million hands).
        if ClubFilter.parameter_name in request.GET:
            return ["club_id", "season_id", "member_id", "-id"]  # ids: not the clubs' names
        return super().get_ordering(request)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """Read-only: an audit trail that could be edited would prove nothing."""

    list_display = ["at", "club", "user", "action", "object_type", "object_id", "note"]
    list_filter = ["action", ClubFilter, "object_type"]
    list_select_related = ["club", "user"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    search_fields = ["note", "object_id"]
    date_hierarchy = "at"

