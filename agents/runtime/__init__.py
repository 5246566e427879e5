"""What the graph's nodes run with: the run context, the room view, team planning, review lanes, the circuit breaker, the trajectory and the root's observation."""
