from django.contrib import admin

from debates.models import UserQuota


@admin.register(UserQuota)
class UserQuotaAdmin(admin.ModelAdmin):
    """Raise (or lower) one user's limits; staff need none, they are never limited."""

    list_display = ["user", "max_concurrent_debates", "daily_spend_usd", "monthly_spend_usd"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
