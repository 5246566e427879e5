"""The review table's tests share the app tests' fixtures (workspace, real server, headless Chromium)."""

from tests.app.conftest import _hash_embeddings, app_server, browser, ui  # noqa: F401
