"""Whether OpenID Connect sign-in is configured: the [auth] section Streamlit's st.login needs, read without
Streamlit so that `python -m app` can decide before the server starts (and app/session/auth.py on the running server)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

GENERAL = ("redirect_uri", "cookie_secret")
PROVIDER = ("client_id", "client_secret", "server_metadata_url")


def auth_section(path: Path) -> Mapping[str, Any] | None:
    """The [auth] table of a secrets file, or None (no file, no section, or not valid TOML)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    section = data.get("auth")
    return section if isinstance(section, Mapping) else None


def missing(section: Mapping[str, Any] | None) -> list[str]:
    """The keys st.login needs that the section lacks; empty when sign-in is configured.

    The provider keys may sit in [auth] itself (the default provider) or in one named sub-table
    ([auth.firm]); app/session/auth.py signs in with the first provider that is complete."""
    if not section:
        return ["[auth] section"]
    absent = [k for k in GENERAL if not section.get(k)]
    if provider(section) is None:
        absent += [k for k in PROVIDER if not section.get(k)]
    return absent


def provider(section: Mapping[str, Any]) -> str | None:
    """'default' when [auth] holds the provider keys, else the first complete sub-table's name, else None."""
    if all(section.get(k) for k in PROVIDER):
        return "default"
    for name, sub in section.items():
        if isinstance(sub, Mapping) and all(sub.get(k) for k in PROVIDER):
            return name
    return None


def signin_configured(path: Path) -> bool:
    return not missing(auth_section(path))
