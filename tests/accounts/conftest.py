from tests.web.conftest import *  # noqa: F403  (the web tests' fixtures: a club, one user per role)
