"""Conversations with a caller: the scripted user, the reference agent's voice, the gold talk."""
