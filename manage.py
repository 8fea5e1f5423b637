#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    from config.startup import settings_or_exit

    settings_or_exit()  # a setting that cannot be used: one sentence and exit status 1

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
