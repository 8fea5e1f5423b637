from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from clubs.views.offline import service_worker

# A failure outside any view while the database is down is a 503 too (config.unavailable).
handler500 = "config.unavailable.server_error"
# Pages that say what to do: who may do this and whom to ask; how to get back to the club.
handler403 = "clubs.views.error_pages.permission_denied"
handler404 = "clubs.views.error_pages.page_not_found"


def favicon(request):
    """Browsers ask for /favicon.ico on every first visit whatever the page says: the icon, not
    a 25 KB not-found page and a 'Not Found' line in the server log each time."""
    return redirect(static("img/icon.svg"))


urlpatterns = [
    # The club API first: its routes are the ones tables hit while a night is played.
    path("api/v1/", include("clubs.api_urls")),
    path("api/v1/", include("sheets.api_urls")),
    path("api/v1/", include("door.api_urls")),
    path("api/v1/", include("scoring.urls")),
    # Before the house-rule routes: house-rules/compare/ is not a house rule's slug.
    path("api/v1/", include("compare.api_urls")),
    path("api/v1/", include("houserules.urls")),
    path("api/v1/", include("settlements.urls")),
    path("api/v1/", include("league.api_urls")),
    path("api/v1/", include("history.api_urls")),
    path("api/v1/", include("accounts.api_urls")),
    path("admin/", admin.site.urls),
    # The service worker keeps a table's pages for recording without signal (issue #24).
    path("sw.js", service_worker, name="service-worker"),
    path("favicon.ico", favicon),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("", include("accounts.urls")),
    path("", include("compare.urls")),
    path("", include("sheets.urls")),
    path("", include("door.urls")),
    path("", include("clubs.urls")),
    path("", include("league.urls")),
    path("", include("history.urls")),
]
