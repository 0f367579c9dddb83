"""Speech input adapters."""
