"""Parsing and embedding as Ray tasks for rooms larger than one machine (team mode), and a local Ray cluster."""
