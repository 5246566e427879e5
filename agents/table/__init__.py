"""The review table: documents × questions, typed answers with their passages, reviewer marks, exports."""
