"""The 310P stage runner (Ascend 310P cards)."""
