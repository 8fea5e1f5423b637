"""House rules in the admin (the house-rules engineer replaces this with richer ModelAdmins)."""

from django.contrib import admin

from clubs.models import HouseRuleRecord, HouseRuleVersion

admin.site.register(HouseRuleRecord)
admin.site.register(HouseRuleVersion)
