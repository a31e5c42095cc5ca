"""The Celery application: bot turns, turn timers and eliminations."""

from __future__ import annotations

import os

from celery import Celery

from config import broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
broker.install()

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
