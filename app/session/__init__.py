"""A browser session's context: who is signed in and what they may do, which room and run they look at, the shared clients."""
