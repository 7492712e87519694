"""Conversations with a caller: the scripted user, the reference agent's voice, the gold talk.

Holds:
- `agent_phrases`: the reference agent's words: pools of questions, read-backs, proposals and
  offers.
- `conversation`: the gold conversation of a task: where the agent asks the user, confirms, and
  calls tools.
- `scripted_user`: the scripted user: a deterministic user who answers the agent from the task's
  scenario only.
- `user_asked`: what an agent's message asks the scripted user for: its details by their everyday
  names.
- `user_phrases`: the scripted user's words: pools of replies by kind and manner, one drawn per
  reply.
- `user_choice`: what the caller names in an agent's message: the option a choice question asks
  for, and whether a proposal is the change they called for.
- `user_reading`: how the scripted user reads an agent's turn: options listed, offers, refusals,
  values in words.
"""
