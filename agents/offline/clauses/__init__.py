"""Reading one clause: its parts and grammar, who may do what on which trigger, the conditions found and the one-sentence summary."""
