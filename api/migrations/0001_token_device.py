# The device name beside each knox token (api.models.TokenDevice).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [
        migrations.CreateModel(
            name="TokenDevice",
            fields=[
                (
                    "token",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="device",
                        serialize=False,
                        to=settings.KNOX_TOKEN_MODEL,
                    ),
                ),
                ("name", models.CharField(blank=True, default="", max_length=100)),
            ],
        ),
    ]
