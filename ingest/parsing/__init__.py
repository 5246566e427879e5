"""Parsing: partition one file in a forked worker, its document text and title-aware chunks."""
