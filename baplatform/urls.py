"""URL map: portal pages, accounts, the admin, and the versioned API under /api/v1/."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from baplatform import api_errors, api_paths

api_v1: list[URLPattern | URLResolver] = [
    path("", include("apps.tenants.api_urls")),
    path("", include("apps.datasets.api_urls")),
    path("", include("apps.conversations.api_urls")),
    path("", include("apps.audit.api_urls")),
    re_path(r"^(?P<path>.*[^/])$", api_paths.without_slash),  # last: only what no API path matched
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(template_name="portal/login.html"), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("apps.observability.urls")),
    path("", include("apps.datasets.urls")),
    path("", include("apps.conversations.urls")),
    path("", include("apps.audit.urls")),
    path("", include("apps.tenants.urls")),
]

handler404 = api_errors.not_found
handler500 = api_errors.server_error
