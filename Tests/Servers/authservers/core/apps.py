from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "authservers.core"
    label = "core"
    default_auto_field = "django.db.models.BigAutoField"
