"""Password hashing for the test process: Django's PBKDF2-SHA256, with a thousand iterations
instead of a million.

Creating Alice and Mallory with a password cost about a second of CPU per test (two hashes of a
million iterations each), most of the setup time of the page tests. The algorithm and the stored
format are the production hasher's ("pbkdf2_sha256$<iterations>$..."), and PBKDF2 verifies with
the iterations a hash names, so a user made here still logs in to the live server the browser
tests drive, which keeps the production settings (and rehashes on that login).
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000
