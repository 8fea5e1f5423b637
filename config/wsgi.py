import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.startup import settings_or_exit  # noqa: E402

settings_or_exit()  # a setting that cannot be used: one sentence and exit status 1
application = get_wsgi_application()
