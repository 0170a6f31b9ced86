"""The site's own error pages where Django's defaults would render without the request."""

from django.shortcuts import render


def csrf_failure(request, reason=""):
    # Rendered with the request, so the page shows who is logged in like every other page; the
    # reason is for the logs, not the visitor.
    return render(request, "403_csrf.html", status=403)
