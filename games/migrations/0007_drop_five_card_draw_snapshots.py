"""Five-Card Draw's state gained fields (the cash table's ``max_buy_in`` for top-ups, FD-13; the
stakes of a passed deals' pot, FD-6): a snapshot taken before would decode without them. Snapshots
are a cache of the events' fold, so this drops that game's and lets the next load rebuild them."""

from django.db import migrations


def drop_snapshots(apps, schema_editor):
    Snapshot = apps.get_model("games", "Snapshot")
    Snapshot.objects.filter(table__game="five_card_draw").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_seat_chips"),
    ]

    operations = [
        migrations.RunPython(drop_snapshots, migrations.RunPython.noop),
    ]
