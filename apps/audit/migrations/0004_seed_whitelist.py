"""Seed the whitelist with phrases that contain a detection word but are ordinary language."""

from django.db import migrations

WHITELIST = [(r"(?i)\bfor example\b", "ordinary English, not sample data")]


def seed(apps, schema_editor):
    WhitelistPattern = apps.get_model("audit", "WhitelistPattern")
    for regex, note in WHITELIST:
        WhitelistPattern.objects.get_or_create(regex=regex, defaults={"note": note})


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_audit_events_usage_review")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
