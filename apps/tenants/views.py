"""Portal pages for tenants: home, tenant switcher, members and API tokens."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.audit.changes import VIA_PORTAL, Actor
from apps.tenants import services
from apps.tenants.context import SESSION_TENANT_KEY, TenantContext
from apps.tenants.models import ApiToken, Membership
from apps.tenants.portal import portal_view
from apps.tenants.scopes import ALL_SCOPES, MEMBERS_MANAGE, TOKENS_MANAGE, Role
from apps.tenants.selectors import memberships_for_user
from baplatform.errors import PlatformError


@portal_view()
def home(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    return render(request, "portal/home.html", {"ctx": ctx})


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
    elif action == "remove":
        member_id = int(request.POST.get("member_id", 0))
        services.membership_remove(tenant=tenant, membership_id=member_id, actor=actor)
        messages.success(request, _("Member removed."))
    else:
        raise PlatformError(_("Unknown action."))


@portal_view(scope=MEMBERS_MANAGE, write_scope=MEMBERS_MANAGE)
def members(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    if request.method == "POST":
        try:
            _run_action(request, request.POST.get("action", ""), ctx)
        except (PlatformError, ValueError) as exc:
            messages.error(request, getattr(exc, "message", _("Invalid request.")))
        return redirect("members")
    rows = Membership.objects.for_tenant(ctx.tenant).select_related("user").order_by("user__username")
    return render(request, "portal/members.html", {"members": rows, "form": MemberAddForm(), "roles": Role.choices})


class TokenCreateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"), choices=[(s, s) for s in ALL_SCOPES], widget=forms.CheckboxSelectMultiple
    )
    expires_in_days = forms.IntegerField(
        label=gettext_lazy("Expires in (days, 0 = never)"), min_value=0, max_value=services.MAX_TOKEN_DAYS, initial=90
    )


@portal_view(scope=TOKENS_MANAGE, write_scope=TOKENS_MANAGE)
def api_tokens(request: HttpRequest, ctx: TenantContext) -> HttpResponse:
    created_raw = None
    form = TokenCreateForm()
    if request.method == "POST" and request.POST.get("action") == "revoke":
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
