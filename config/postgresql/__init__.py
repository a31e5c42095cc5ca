"""Django's PostgreSQL backend with the pool of config/postgresql/base.py (``ENGINE =
"config.postgresql"``, set by config/settings.py when the pool is on)."""
