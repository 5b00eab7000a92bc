"""REST endpoints for the caller's tenant: who am I, API tokens, members."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from apps.audit.changes import VIA_API, Actor
from apps.tenants import services
from apps.tenants.api_base import TenantAPIView
from apps.tenants.models import ApiToken, Membership
from apps.tenants.permissions import ANY_SCOPE
from apps.tenants.scopes import MEMBERS_MANAGE, TOKENS_MANAGE, Role
from apps.tenants.scoping import get_for_tenant_or_404
from apps.tenants.zones import zone_label


def token_out(token: ApiToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "scopes": token.scopes,
        "status": token.status,
        "created_at": token.created_at,
        "expires_at": token.expires_at,
        "last_used_at": token.last_used_at,
        "revoked_at": token.revoked_at,
        "created_by": getattr(token.created_by, "username", None),
    }


def membership_out(membership: Membership) -> dict[str, Any]:
    return {
        "id": membership.pk,
        "username": membership.user.get_username(),
        "email": getattr(membership.user, "email", ""),
        "role": membership.role,
        "created_at": membership.created_at,
    }


class MeView(TenantAPIView):
    scope_map = {"GET": ANY_SCOPE}

    def get(self, request: Request) -> Response:
        ctx = self.tenant_ctx
        tenant = ctx.tenant
        body: dict[str, Any] = {
            "tenant": {
                "id": tenant.pk,
                "slug": tenant.slug,
                "name": tenant.name,
                "plan": tenant.plan,
                # Date-times in responses are in this zone, with their offset; owners and admins change it
                # in the portal's Members page.
                "time_zone": tenant.time_zone,
                "time_zone_label": zone_label(tenant.time_zone),
            },
            "scopes": sorted(ctx.scopes),
            "actor": {"type": "token" if ctx.token else "user", "label": ctx.actor_label},
        }
        if ctx.token is not None:
            body["token"] = token_out(ctx.token)
        if ctx.membership is not None:
            body["role"] = ctx.membership.role
        return Response(body)


class TokenCreateIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    scopes = serializers.ListField(child=serializers.CharField(max_length=40), allow_empty=False)
    expires_in_days = serializers.IntegerField(required=False, allow_null=True)


class TokenListView(TenantAPIView):
    scope_map = {"GET": TOKENS_MANAGE, "POST": TOKENS_MANAGE}

    def get(self, request: Request) -> Response:
        tokens = ApiToken.objects.for_tenant(self.tenant).select_related("created_by")
        return self.paginate(tokens, token_out)

    def post(self, request: Request) -> Response:
        data = TokenCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        ctx = self.tenant_ctx
        token, raw = services.token_create(
            tenant=self.tenant,
            created_by=ctx.user if ctx.token is None else ctx.token.created_by,
            allowed_scopes=ctx.scopes,
            actor=Actor.of(ctx, via=VIA_API),
            **data.validated_data,
        )
        return Response({**token_out(token), "token": raw}, status=status.HTTP_201_CREATED)


class TokenDetailView(TenantAPIView):
    scope_map = {"GET": TOKENS_MANAGE, "DELETE": TOKENS_MANAGE}

    def get(self, request: Request, token_id: int) -> Response:
        return Response(token_out(get_for_tenant_or_404(ApiToken, self.tenant, pk=token_id)))

    def delete(self, request: Request, token_id: int) -> Response:
        """Revoke (the row stays, so audits keep naming the token)."""
        actor = Actor.of(self.tenant_ctx, via=VIA_API)
        return Response(token_out(services.token_revoke(tenant=self.tenant, token_id=token_id, actor=actor)))


class MemberAddIn(serializers.Serializer):
    login = serializers.CharField(max_length=254, help_text="username or email of an existing user")
    role = serializers.ChoiceField(choices=Role.choices, default=Role.ANALYST)


class MemberRoleIn(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class MemberListView(TenantAPIView):
    scope_map = {"GET": MEMBERS_MANAGE, "POST": MEMBERS_MANAGE}

    def get(self, request: Request) -> Response:
        members = Membership.objects.for_tenant(self.tenant).select_related("user").order_by("user__username")
        return self.paginate(members, membership_out)

    def post(self, request: Request) -> Response:
        data = MemberAddIn(data=request.data)
        data.is_valid(raise_exception=True)
        actor = Actor.of(self.tenant_ctx, via=VIA_API)
        membership = services.membership_add_by_login(tenant=self.tenant, actor=actor, **data.validated_data)
        return Response(membership_out(membership), status=status.HTTP_201_CREATED)


class MemberDetailView(TenantAPIView):
    scope_map = {"GET": MEMBERS_MANAGE, "PATCH": MEMBERS_MANAGE, "DELETE": MEMBERS_MANAGE}

    def get(self, request: Request, member_id: int) -> Response:
        return Response(membership_out(get_for_tenant_or_404(Membership, self.tenant, pk=member_id)))

    def patch(self, request: Request, member_id: int) -> Response:
        data = MemberRoleIn(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.membership_set_role(
            tenant=self.tenant,
            membership_id=member_id,
            actor=Actor.of(self.tenant_ctx, via=VIA_API),
            **data.validated_data,
        )
        return Response(membership_out(membership))

    def delete(self, request: Request, member_id: int) -> Response:
        actor = Actor.of(self.tenant_ctx, via=VIA_API)
        services.membership_remove(tenant=self.tenant, membership_id=member_id, actor=actor)
        return Response(status=status.HTTP_204_NO_CONTENT)
