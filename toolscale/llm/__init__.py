"""Talking to OpenAI-compatible chat endpoints: client, request cache, tool-call parsing."""
