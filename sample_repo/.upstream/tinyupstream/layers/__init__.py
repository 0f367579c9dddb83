"""Upstream layers."""
