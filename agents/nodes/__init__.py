"""Graph nodes, one per module: `async def node(state, config)`."""
