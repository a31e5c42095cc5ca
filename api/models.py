"""What the API keeps of its own: the name a client gave the device a token was issued to."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from knox.models import AuthToken


class TokenDevice(models.Model):
    """The device name of one token (``auth/token/`` with ``"device": "Alice's phone"``), shown in
    ``auth/tokens/`` so a person can tell their tokens apart and revoke one. Goes with its token."""

    token = models.OneToOneField(AuthToken, primary_key=True, on_delete=models.CASCADE, related_name="device")
    name = models.CharField(max_length=100, blank=True, default="")

    def __str__(self) -> str:
        return self.name or "(unnamed device)"


class LanguagePreference(models.Model):
    """The language a person reads the API in (``me/language/``), before any ``Accept-Language``.
    One of ``settings.LANGUAGES``' codes; no row: the request's header decides."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="language_preference"
    )
    language = models.CharField(max_length=16)

    def __str__(self) -> str:
        return self.language
