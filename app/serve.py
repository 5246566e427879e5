"""`python -m app.serve run app/main.py ...`: Streamlit's own command line, with the pages-folder mode off.

Streamlit treats a `pages/` folder beside the main script as a version-1 multipage app until some session
has run the main script's st.navigation (a process-wide switch). On a freshly started server the first
visit to /rooms, /run, ... therefore ran that page's file directly: no sidebar, no room or run picker, and
none of app/main.py's checks (the binding rule). Switching the mode off before the server starts makes
every session go through app/main.py. app/launch.py and the browser tests start the server this way.
"""

from __future__ import annotations

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli


def main() -> None:
    PagesManager.uses_pages_directory = False  # read once, when the first session's PagesManager is built
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
