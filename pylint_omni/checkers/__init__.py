"""One checker per module; `base.OmniChecker` gives each one the project index."""
