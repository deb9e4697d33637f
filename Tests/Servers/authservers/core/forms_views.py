"""The HTML login form: Django's own LoginView/LogoutView, a profile page and its JSON twin.

  GET  /accounts/login/            the form (hidden csrfmiddlewaretoken + hidden next, username,
                                   password); sets the csrftoken cookie
  POST /accounts/login/            success: 302 → /accounts/profile/ (or a same-origin `next`) with
                                   a sessionid cookie; bad credentials: 200, the form again with an
                                   error list; no/bad CSRF token: 403
  GET  /accounts/profile/          login required (else 302 → /accounts/login/?next=…); the user
                                   in <dl id="profile"> with one <dd class="FIELD"> per field
  GET  /accounts/profile.json      the same user as JSON; 401 JSON when not logged in
  POST /accounts/logout/           Django's LogoutView (CSRF token required) → 302 /accounts/login/
  GET  /accounts/login-elsewhere/  a login form whose successful POST redirects to another
                                   origin (settings.OFFSITE_ORIGIN)
  GET  /accounts/login-offsite/    a login form whose action is on another origin
"""
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


def user_fields(user):
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
    }


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    form_action = "/accounts/login/"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["form_action"] = self.form_action
        context["next_value"] = context.get("next") or settings.LOGIN_REDIRECT_URL
        return context


class LoginElsewhereView(LoginView):
    """Logs in like /accounts/login/, then redirects to a different origin."""

    form_action = "/accounts/login-elsewhere/"

    def get_success_url(self):
        return settings.OFFSITE_ORIGIN + "/accounts/profile/"


class LoginOffsiteView(LoginView):
    """A login page whose form posts the credentials to a different origin."""

    http_method_names = ["get", "head", "options"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["form_action"] = settings.OFFSITE_ORIGIN + "/accounts/login/"
        return context


@require_GET
@login_required
def profile(request):
    return render(request, "accounts/profile.html", {"fields": user_fields(request.user)})


@require_GET
def profile_json(request):
    if not request.user.is_authenticated:
        return JsonResponse({"error": "not_authenticated"}, status=401)
    return JsonResponse(user_fields(request.user), json_dumps_params={"ensure_ascii": False})
