"""Django REST framework + SimpleJWT: the current-user endpoint (the token views are SimpleJWT's)."""
from rest_framework.response import Response
from rest_framework.views import APIView


class MeView(APIView):
    """GET /api/me/ with `Authorization: Bearer <access>` → the user as JSON."""

    def get(self, request):
        user = request.user
        return Response({
            "id": user.pk,
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
        })
