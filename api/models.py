"""What the API keeps of its own: the name a client gave the device a token was issued to."""

from __future__ import annotations

from django.db import models
from knox.models import AuthToken


class TokenDevice(models.Model):
    """The device name of one token (``auth/token/`` with ``"device": "Alice's phone"``), shown in
    ``auth/tokens/`` so a person can tell their tokens apart and revoke one. Goes with its token."""

    token = models.OneToOneField(AuthToken, primary_key=True, on_delete=models.CASCADE, related_name="device")
    name = models.CharField(max_length=100, blank=True, default="")

    def __str__(self) -> str:
        return self.name or "(unnamed device)"
