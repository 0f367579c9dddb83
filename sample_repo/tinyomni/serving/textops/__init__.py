"""Text normalisation the router calls directly."""
