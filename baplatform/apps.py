"""Project-level app configuration."""

from django.contrib.staticfiles.apps import StaticFilesConfig


class PortalStaticFilesConfig(StaticFilesConfig):
    """static/ holds npm's install tree next to the served files: only the copied vendor files ship."""

    ignore_patterns = [*StaticFilesConfig.ignore_patterns, "node_modules", "package.json", "package-lock.json"]
