"""A review run from start to end: the detached worker process and its lock, the checkpointer, the policy pair, streaming the graph."""
