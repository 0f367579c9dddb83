"""Layers shared by the stage models."""
