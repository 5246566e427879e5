"""Streamlit app: one entry point (app/main.py) and thin pages; helpers here are plain Python."""
