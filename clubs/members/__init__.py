"""A club's members as a secretary keeps them: turning a guest into a member, merging a
member entered twice, and undoing either (``merge``); the table states' copies of the names
(``seat_names``)."""
