"""The root agent's tools as the harness executes them, and the default instructions its delegations carry."""
