"""Who is signed in, what they may do, and the guard every page calls.

Sign-in is Streamlit's st.login (OpenID Connect) and is on exactly when the server's secrets have a complete
[auth] section (app/session/auth_config.py). Off, the app is one local user, settings.app.author, who may do
everything (loopback, or behind the operator's own access control: app/launch.py decides that).

On, a person is their verified e-mail address; admins are the addresses in settings.auth.admins. Pages get
the review store only as a ScopedStore for that person (agents/store/access.py), which is where refusals
happen; the page only hides buttons the store would refuse anyway.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import streamlit as st

from core.settings import Settings

from agents.store.access import NO_ACCESS, AccessDenied, Principal, ScopedStore, normalise

from app.session import auth_config, services


def _secrets_auth() -> Mapping | None:
    """The running server's [auth] section (the files Streamlit was started with), or None."""
    try:
        if not st.secrets.load_if_toml_exists():
            return None
        section = st.secrets.get("auth")
    except (FileNotFoundError, st.errors.StreamlitSecretNotFoundError):
        return None
    return section.to_dict() if hasattr(section, "to_dict") else section


# Sign-in without an admin is a locked installation: nobody may create a room or grant one.
NO_ADMINS = ("No administrator is configured (DATAROOM_AUTH__ADMINS is empty), so nobody can create data rooms or "
             "grant access to them. Ask whoever runs this installation to list the admins' e-mail addresses.")


def signin_enabled() -> bool:
    return not auth_config.missing(_secrets_auth())


def _identity() -> str | None:
    """The signed-in person's verified e-mail, or None (not signed in, or no verified address)."""
    if not st.user.is_logged_in:
        return None
    email = st.user.get("email")
    if not isinstance(email, str) or not email.strip() or st.user.get("email_verified") is False:
        return None
    return normalise(email)


def principal(settings: Settings) -> Principal | None:
    """Who is acting, or None when sign-in is on and nobody (with a verified e-mail) is signed in."""
    if not signin_enabled():
        return Principal(settings.app.author, admin=True)
    email = _identity()
    if email is None:
        return None
    return Principal(email, admin=email in {normalise(a) for a in settings.auth.admins})


def _sign_in_page() -> None:
    st.title("Sign in")
    if st.user.is_logged_in:  # signed in, but the provider gave no verified e-mail: no one to grant rooms to
        st.error("Your identity provider did not give this app a verified e-mail address, which is how rooms are "
                 "granted. Ask your administrator, or sign in with another account.")
        st.button("Sign out", on_click=st.logout)
        return
    st.write("This installation is for the firm's diligence team. Sign in with your firm account; you will see "
             "the data rooms an admin has given you access to.")
    section = _secrets_auth() or {}
    st.button("Sign in", type="primary", icon=":material/login:", on_click=st.login,
              args=(auth_config.provider(section),) if auth_config.provider(section) != "default" else ())


def _no_access() -> None:
    from app.session import state

    st.error(NO_ACCESS, icon=":material/block:")
    if st.button("Show my data rooms"):
        state.set_room(None)
        state.set_run(None)
        st.rerun()


def guard(settings: Settings | None = None) -> Principal:
    """Every page calls this first: the signed-in person (or a sign-in page and stop), and a plain "no access"
    (and stop) when the room or run in the URL or session is not theirs to see."""
    from app.session import state

    settings = settings or services.settings()
    who = principal(settings)
    if who is None:
        _sign_in_page()
        st.stop()
    if signin_enabled() and not settings.auth.admins:
        st.warning(NO_ADMINS, icon=":material/warning:")
    raw = services.review_store(settings)
    room, rid = state.room(), state.run_id()
    if room and raw.room_role(room, who) is None:
        _no_access()
        st.stop()
    run = raw.run(rid) if rid else None
    if run is not None and raw.room_role(run.room, who) is None:
        _no_access()
        st.stop()
    return who


def store(settings: Settings) -> ScopedStore:
    """The review store as the signed-in person may use it."""
    return ScopedStore(services.review_store(settings), guard(settings))


def author(settings: Settings) -> str:
    """The name recorded with a decision (the store records the same for a signed-in person anyway)."""
    return guard(settings).user


def room_names(settings: Settings) -> list[str]:
    """The rooms the signed-in person may see (all of them for an admin or the local user)."""
    return services.review_store(settings).visible_rooms(services.room_names(settings), guard(settings))


def can_write(settings: Settings, room: str) -> bool:
    return services.review_store(settings).room_role(room, guard(settings)) in ("admin", "reviewer")


def is_admin(settings: Settings) -> bool:
    return guard(settings).admin


def sidebar_user(settings: Settings) -> None:
    """Who is signed in and their role on the selected room; nothing in local mode."""
    if not signin_enabled():
        return
    from app.session import state

    who = guard(settings)
    room = state.room()
    role = services.review_store(settings).room_role(room, who) if room else None
    line = f"Signed in as {who.user}" + (" · admin" if who.admin else f" · {role} of this room" if role else "")
    st.html(f'<div style="font-size:0.85rem;color:#555">{html.escape(line)}</div>')  # an address is data
    st.button("Sign out", on_click=st.logout, type="tertiary", icon=":material/logout:")


__all__ = ["AccessDenied", "author", "can_write", "guard", "is_admin", "principal", "room_names", "sidebar_user",
           "signin_enabled", "store"]
