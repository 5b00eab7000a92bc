"""Seed the verify rules with the built-in defaults (a frozen copy: later code changes do not alter it)."""

from django.db import migrations

PATTERNS = [
    ('consecutive_placeholders', '((?:用户|客户|会员|员工|商品|产品|账号|User|Customer|Item|Product|Client)|[A-Z])\\s?\\d+\\s*[、,，;；/]\\s*\\1\\s?\\d+\\s*[、,，;；/]\\s*\\1\\s?\\d+', 'three or more numbered placeholders in a row (用户1、用户2、用户3; A1, A2, A3)'),
    ('numbered_placeholder', '(?<![A-Za-z])(?:用户|客户|会员|员工|商品|产品|账号|User|Customer|Item|Product|Client)\\s?(?:ID|编号|id)?\\s?[:：#]?\\s?[1-9]\\d*(?!\\d)', 'a numbered placeholder (用户1, 用户ID: 1, User 1, Customer 2)'),
    ('list_placeholder', '(?m)^\\s*[-*•]\\s*(?:用户|客户|会员|员工|商品|产品|账号|User|Customer|Item|Product|Client)\\s?\\d+', 'a list item that is a placeholder'),
    ('test_name', '(?<![A-Za-z])(?:Alice|Bob|Charlie|David|Eve|John Doe|Jane Doe|[Ff]oo(?:\\s?[Bb]ar)?)(?![A-Za-z])', 'a name typical of test or sample data'),
    ('test_name_zh', '张三|李四|王五|赵六|某某|示例', "a Chinese placeholder name or 'example'"),
    ('sample_word', '(?i)(?<![A-Za-z])(?:sample|example|dummy|placeholder|lorem ipsum)(?![A-Za-z])', 'a word that marks sample or example data'),
]
REQUIRED = [("file", ["get_schema", "run_query"], []), ("sql", [], ["run_query", "execute_sql_safe"])]


def seed(apps, schema_editor):
    DetectionPattern = apps.get_model("audit", "DetectionPattern")
    RequiredToolRule = apps.get_model("audit", "RequiredToolRule")
    for code, regex, description in PATTERNS:
        DetectionPattern.objects.get_or_create(code=code, defaults={"regex": regex, "description": description})
    for source_type, all_of, any_of in REQUIRED:
        RequiredToolRule.objects.get_or_create(source_type=source_type, defaults={"all_of": all_of, "any_of": any_of})


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
