"""View-models as plain data (no streamlit, so unit-testable): rooms, run, findings, table, memo, trace, coverage, downloads, colours, cited passages."""
