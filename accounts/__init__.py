"""People and their logins: sign-up, password reset, invitations to a club, personal API tokens."""
