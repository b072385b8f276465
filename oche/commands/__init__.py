"""One module per ``oche`` sub-command group."""
