"""Output formatters; more come from installed plugins."""
