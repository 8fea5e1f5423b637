"""Start a club (any signed-in person; they become its first admin)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse

from clubs.starting import ClubTaken, StartClubForm, start_refusal


@login_required
def start_club_page(request):
    if refused := start_refusal(request.user):
        # Said before the form is filled in, with the way to the confirmation link.
        return render(request, "clubs/start_club.html", {"refused": refused},
                      status=403 if request.method == "POST" else 200)
    form = StartClubForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            club = form.save()
        except ClubTaken:
            pass  # the form now says which field to change
        else:
            messages.success(request, f"{club.name} is started and you are its admin. Next: "
                                      "invite your scorers and add your members.")
            return redirect(reverse("club", args=[club.slug]))
    status = 400 if form.is_bound else 200
    return render(request, "clubs/start_club.html", {"form": form}, status=status)
