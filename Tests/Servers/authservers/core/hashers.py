"""Django's PBKDF2-SHA256 hasher with a test-sized iteration count (fast seeding and logins)."""
from django.contrib.auth.hashers import PBKDF2PasswordHasher


class TestPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    algorithm = "pbkdf2_sha256_test"
    iterations = 20_000
