"""Django's SQLite backend, with writers queued on a lock file instead of in SQLite's sleeping
busy handler (see ``base``)."""
