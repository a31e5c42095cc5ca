from django.urls import path

from api import auth_views, language_views, password_views, streams, views
from api.audit_urls import urlpatterns as audit_urlpatterns
from api.dispute_urls import urlpatterns as dispute_urlpatterns
from api.ledger_urls import urlpatterns as ledger_urlpatterns

urlpatterns = [
    path("auth/register/", auth_views.RegisterView.as_view(), name="register"),
    path("auth/token/", auth_views.TokenView.as_view(), name="token"),
    path("auth/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("auth/logout-all/", auth_views.LogoutAllView.as_view(), name="logout-all"),
    path("auth/tokens/", auth_views.TokensView.as_view(), name="tokens"),
    path("auth/tokens/<str:token_id>/", auth_views.TokenItemView.as_view(), name="token-item"),
    path("auth/session/", auth_views.SessionView.as_view(), name="session"),
    path("auth/password-reset/", password_views.PasswordResetView.as_view(), name="password-reset"),
    path(
        "auth/password-reset/confirm/",
        password_views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path("games/", views.GamesView.as_view(), name="games"),
    path("tables/", views.TablesView.as_view(), name="tables"),
    path("tables/<str:table_id>/", views.TableView.as_view(), name="table"),
    path("tables/<str:table_id>/join/", views.JoinView.as_view(), name="table-join"),
    path("tables/<str:table_id>/leave/", views.LeaveView.as_view(), name="table-leave"),
    path("tables/<str:table_id>/seats/<number:seat>/", views.SeatView.as_view(), name="table-seat"),
    path("tables/<str:table_id>/bots/", views.BotsView.as_view(), name="table-bots"),
    path("tables/<str:table_id>/start/", views.StartView.as_view(), name="table-start"),
    path("tables/<str:table_id>/client-seed/", views.ClientSeedView.as_view(), name="table-client-seed"),
    path("tables/<str:table_id>/actions/", views.ActionsView.as_view(), name="table-actions"),
    path("tables/<str:table_id>/events/", views.EventsView.as_view(), name="table-events"),
    path("tables/<str:table_id>/stream/", streams.TableStreamView.as_view(), name="table-stream"),
    path("me/stream/", streams.MyStreamView.as_view(), name="my-stream"),
    path("me/language/", language_views.MyLanguageView.as_view(), name="my-language"),
    path("languages/", language_views.LanguagesView.as_view(), name="languages"),
    *ledger_urlpatterns,
    *audit_urlpatterns,
    *dispute_urlpatterns,
]
