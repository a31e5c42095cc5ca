"""Every game's public slug is kebab-case: Five-Card Draw's stored tables take ``five-card-draw``
for ``five_card_draw``. The code still takes the old slug (``Game.former_slugs``), so a table
missed here, or written back by the reverse, keeps working."""

from django.db import migrations

RENAMED = {"five_card_draw": "five-card-draw"}


def kebab_case(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for old, new in RENAMED.items():
        Table.objects.filter(game=old).update(game=new)


def back(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for old, new in RENAMED.items():
        Table.objects.filter(game=new).update(game=old)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_partition_events_by_era"),
    ]

    operations = [
        migrations.RunPython(kebab_case, back),
    ]
