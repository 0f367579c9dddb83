"""Wire messages of the connectors (generated)."""
