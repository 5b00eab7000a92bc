"""Placeholder patterns match within one line ("用户：" ending a line above a numbered list of real names is a heading,
not "用户1"), and a count is not a placeholder ("订阅用户 3,053 人"). Stored copies still equal to the seeded regex are updated; patterns an admin edited are left alone."""

from django.db import migrations

_WORDS = "(?:用户|客户|会员|员工|商品|产品|账号|User|Customer|Item|Product|Client)"
UPDATES = {
    "consecutive_placeholders": (
        f"({_WORDS}|[A-Z])\\s?\\d+\\s*[、,，;；/]\\s*\\1\\s?\\d+\\s*[、,，;；/]\\s*\\1\\s?\\d+",
        f"({_WORDS}|[A-Z])[ \\t]?\\d+[ \\t]*[、,，;；/][ \\t]*\\1[ \\t]?\\d+[ \\t]*[、,，;；/][ \\t]*\\1[ \\t]?\\d+",
    ),
    "numbered_placeholder": (
        f"(?<![A-Za-z]){_WORDS}\\s?(?:ID|编号|id)?\\s?[:：#]?\\s?[1-9]\\d*(?!\\d)",
        f"(?<![A-Za-z]){_WORDS}[ \\t]?(?:ID|编号|id)?[ \\t]?[:：#]?[ \\t]?[1-9]\\d*(?![\\d,，.．]|[ \\t]?[人个名位次单笔户])",
    ),
}


def forward(apps, schema_editor):
    DetectionPattern = apps.get_model("audit", "DetectionPattern")
    for code, (seeded, current) in UPDATES.items():
        DetectionPattern.objects.filter(code=code, regex=seeded).update(regex=current)


def backward(apps, schema_editor):
    DetectionPattern = apps.get_model("audit", "DetectionPattern")
    for code, (seeded, current) in UPDATES.items():
        DetectionPattern.objects.filter(code=code, regex=current).update(regex=seeded)


class Migration(migrations.Migration):
    dependencies = [("audit", "0004_seed_whitelist")]
    operations = [migrations.RunPython(forward, backward)]
