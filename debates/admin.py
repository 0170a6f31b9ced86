from django.contrib import admin

from debates.models import UserQuota
from debates.services.quotas import spend_today_and_month
from gateways.input_rules import StrictJSONAdmin


@admin.register(UserQuota)
class UserQuotaAdmin(StrictJSONAdmin, admin.ModelAdmin):
    """Raise (or lower) one user's limits; staff need none, they are never limited."""

    list_display = [
        "user",
        "max_concurrent_debates",
        "daily_spend_usd",
        "spent_today",
        "monthly_spend_usd",
        "spent_this_month",
    ]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]

    @admin.display(description="spent today (est.)")
    def spent_today(self, quota: UserQuota) -> str:
        return f"${spend_today_and_month(user=quota.user)[0]:.4f}"

    @admin.display(description="spent this month (est.)")
    def spent_this_month(self, quota: UserQuota) -> str:
        return f"${spend_today_and_month(user=quota.user)[1]:.4f}"
