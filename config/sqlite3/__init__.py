"""Django's SQLite backend, with writers queued by the kernel instead of by sleeps (see ``base``)."""
