from api.ledger_urls import urlpatterns as ledger_urlpatterns

urlpatterns: list = [*ledger_urlpatterns]
