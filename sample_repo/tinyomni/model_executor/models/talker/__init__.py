"""The talker stage: speech tokens from the thinker's hidden states."""
