"""Work off the script thread: ingest jobs in their own detached process, with progress written to a file."""
