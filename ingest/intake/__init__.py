"""Intake: a room's files copied safely into the workspace (names, types by content, the rooms present)."""
