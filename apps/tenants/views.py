"""Portal pages for tenants: tenant switcher, members and API tokens (the home page is apps/conversations/home.py)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.audit.changes import VIA_PORTAL, Actor
from apps.tenants import services
from apps.tenants.context import SESSION_TENANT_KEY, TenantContext
from apps.tenants.models import ApiToken, Membership
from apps.tenants.portal import portal_view
from apps.tenants.scopes import ALL_SCOPES, MEMBERS_MANAGE, SCOPE_LABELS, TOKENS_MANAGE, Role
from apps.tenants.selectors import memberships_for_user
from apps.tenants.zones import zone_label, zone_names
from baplatform.errors import PlatformError


@login_required
@require_POST
def switch_tenant(request: HttpRequest) -> HttpResponse:
    wanted = request.POST.get("tenant_id", "")
    memberships = memberships_for_user(user=request.user)
    chosen = next((m for m in memberships if str(m.tenant_id) == wanted), None)
    if chosen is None:
        messages.error(request, _("You are not a member of that tenant."))
    else:
        request.session[SESSION_TENANT_KEY] = chosen.tenant_id
        messages.success(request, _("Switched to %(tenant)s.") % {"tenant": chosen.tenant.name})
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target)


class MemberAddForm(forms.Form):
    login = forms.CharField(label=gettext_lazy("Username or email"), max_length=254)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.ANALYST)


def _run_action(request: HttpRequest, action: str, ctx: TenantContext) -> None:
    tenant, actor = ctx.tenant, Actor.of(ctx, via=VIA_PORTAL)
    if action == "add":
        form = MemberAddForm(request.POST)
        if not form.is_valid():
            raise PlatformError(_("Enter a username or email and a role."))
        membership = services.membership_add_by_login(tenant=tenant, actor=actor, **form.cleaned_data)
        messages.success(request, _("%(user)s added.") % {"user": membership.user.get_username()})
    elif action == "role":
        services.membership_set_role(
            tenant=tenant,
            membership_id=int(request.POST.get("member_id", 0)),
            role=request.POST.get("role", ""),
            actor=actor,
        )
        messages.success(request, _("Role updated."))
    elif action == "time_zone":
        services.tenant_set_time_zone(tenant=tenant, time_zone=request.POST.get("time_zone", ""), actor=actor)
        messages.success(request, _("Times are now shown in %(zone)s.") % {"zone": zone_label(tenant.time_zone)})
    elif action == "remove":
        member_id = int(request.POST.get("member_id", 0))
        services.membership_remove(tenant=tenant, membership_id=member_id, actor=actor)
        messages.success(request, _("Member removed."))
    else:
        raise PlatformError(_("Unknown action."))


def _confirm_page(request: HttpRequest, *, title: str, question: str, confirm_label: str, cancel: str) -> HttpResponse:
    """Ask before a destructive POST: the same fields are posted again with `confirmed=1`."""
    fields = [(k, v) for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "confirmed")]
    context = {
        "title": title,
        "question": question,
        "confirm_label": confirm_label,
        "cancel_url": reverse(cancel),
        "fields": [*fields, ("confirmed", "1")],
    }
    return render(request, "portal/confirm.html", context)


def _confirm_removal(request: HttpRequest, ctx: TenantContext) -> HttpResponse | None:
    if request.POST.get("action") != "remove" or request.POST.get("confirmed") == "1":
        return None
    member = (
        Membership.objects.for_tenant(ctx.tenant)
        .select_related("user")
        .filter(pk=_int(request.POST.get("member_id")))
        .first()
    )
    if member is None:
        return None  # the service gives the usual "not found" message
    return _confirm_page(
        request,
        title=_("Remove a member"),
        question=_("Remove %(user)s from %(tenant)s? They lose access to its data at once.")
        % {"user": member.user.get_username(), "tenant": ctx.tenant.name},
        confirm_label=_("Remove"),
        cancel="members",
    )


def _int(value: str | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0


@portal_view(scope=MEMBERS_MANAGE, write_scope=MEMBERS_MANAGE)
def members(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    if request.method == "POST":
        confirm = _confirm_removal(request, ctx)
        if confirm is not None:
            return confirm
        try:
            _run_action(request, request.POST.get("action", ""), ctx)
        except (PlatformError, ValueError) as exc:
            messages.error(request, getattr(exc, "message", _("Invalid request.")))
        return redirect("members")
    rows = Membership.objects.for_tenant(ctx.tenant).select_related("user").order_by("user__username")
    context = {
        "members": rows,
        "form": MemberAddForm(),
        "roles": Role.choices,
        "time_zone": ctx.tenant.time_zone,
        "time_zone_names": sorted(zone_names()),
    }
    return render(request, "portal/members.html", context)


class TokenCreateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"),
        choices=[(s, format_lazy("{} · {}", s, SCOPE_LABELS[s])) for s in ALL_SCOPES],
        widget=forms.CheckboxSelectMultiple,
    )
    expires_in_days = forms.IntegerField(
        label=gettext_lazy("Expires in (days, 0 = never)"), min_value=0, max_value=services.MAX_TOKEN_DAYS, initial=90
    )


@portal_view(scope=TOKENS_MANAGE, write_scope=TOKENS_MANAGE)
def api_tokens(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    created_raw = None
    form = TokenCreateForm()
    if request.method == "POST" and request.POST.get("action") == "revoke":
        token = ApiToken.objects.for_tenant(ctx.tenant).filter(pk=_int(request.POST.get("token_id"))).first()
        if token is not None and request.POST.get("confirmed") != "1":
            return _confirm_page(
                request,
                title=_("Revoke an API token"),
                question=_(
                    "Revoke the token %(name)s (%(prefix)s…)? Integrations using it stop working at once; "
                    "this cannot be undone."
                )
                % {"name": token.name, "prefix": token.prefix},
                confirm_label=_("Revoke"),
                cancel="api_tokens",
            )
        try:
            token_id = int(request.POST.get("token_id", 0))
            token = services.token_revoke(tenant=ctx.tenant, token_id=token_id, actor=Actor.of(ctx, via=VIA_PORTAL))
            messages.success(request, _("Token %(name)s revoked.") % {"name": token.name})
        except ValueError:
            messages.error(request, _("Invalid request."))
        return redirect("api_tokens")
    if request.method == "POST":
        form = TokenCreateForm(request.POST)
        if form.is_valid():
            try:
                _token, created_raw = services.token_create(
                    tenant=ctx.tenant,
                    created_by=ctx.user,
                    allowed_scopes=ctx.scopes,
                    actor=Actor.of(ctx, via=VIA_PORTAL),
                    **form.cleaned_data,
                )
                form = TokenCreateForm()
            except PlatformError as exc:
                messages.error(request, exc.message)
    rows = ApiToken.objects.for_tenant(ctx.tenant).select_related("created_by")
    return render(request, "portal/tokens.html", {"tokens": rows, "form": form, "created_raw": created_raw})
