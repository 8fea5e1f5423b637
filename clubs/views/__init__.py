"""The club pages: thin views over forms, permissions, the recording service and the table's
read model (``clubs.recording``, ``clubs.table_state``)."""
