"""`python -m app`: start the Streamlit server the way the settings say, from any working directory.

`streamlit run app/main.py` reads .streamlit/config.toml from the working directory only: started from
anywhere else it listened on every interface with usage statistics on. This launcher passes the address
(settings.app.host, loopback by default), the port and "no usage statistics" on the command line and runs
from the repository, so the result does not depend on where it was started. A non-loopback address needs
sign-in: it is refused unless the secrets file (settings.auth.secrets_file) configures OpenID Connect
sign-in, or the operator says, through DATAROOM_APP__ALLOW_UNAUTHENTICATED_REMOTE=1, that something else
guards the port. app/main.py checks the
same rules on the running server (runtime_problem), whichever way it was started.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file path (python /path/to/app/launch.py)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import REPO_ROOT, Settings, get_settings  # noqa: E402

from app.session.auth_config import signin_configured  # noqa: E402

MAIN = REPO_ROOT / "app" / "main.py"
OVERRIDE_ENV = "DATAROOM_APP__ALLOW_UNAUTHENTICATED_REMOTE"


def is_loopback(host: str | None) -> bool:
    """127.0.0.0/8, ::1 or 'localhost'; an empty address means every interface, so no."""
    if not host:
        return False
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name other than localhost may resolve to anything


def binding_problem(host: str | None, settings: Settings, signin: bool | None = None) -> str | None:
    """Why the app must not listen on `host`, or None. `signin`: whether sign-in is configured (default: read
    settings.auth.secrets_file, as the launcher does before Streamlit starts)."""
    if is_loopback(host) or settings.app.allow_unauthenticated_remote:
        return None
    if signin if signin is not None else signin_configured(settings.auth.secrets_file):
        return None
    where = f"address {host!r}" if host else "every network interface"
    return (f"Refusing to serve on {where}: no sign-in is configured, so anyone who reaches the port could read "
            f"every data room. Configure OpenID Connect sign-in (an [auth] section in {settings.auth.secrets_file}, "
            f"see README 'Team sign-in'), bind to 127.0.0.1 (DATAROOM_APP__HOST), or set {OVERRIDE_ENV}=1 if a "
            "proxy with sign-in, a firewall or a container port published on loopback only guards it.")


def runtime_problem(address: str | None, usage_stats: bool, settings: Settings, signin: bool = False) -> str | None:
    """What app/main.py checks on the running server, however it was started (`signin`: the running server's
    own secrets configure sign-in)."""
    if usage_stats:
        return ("Usage statistics are on: this server was started without the project's configuration. "
                "Start the app with `python -m app` (or scripts/demo.sh).")
    return binding_problem(address, settings, signin=signin)


def setup_warning(settings: Settings) -> str | None:
    """Said at start, not refused: sign-in with no admin starts, but nobody can create or grant a room."""
    if signin_configured(settings.auth.secrets_file) and not settings.auth.admins:
        return ("warning: sign-in is configured but DATAROOM_AUTH__ADMINS is empty: nobody will be able to create "
                "data rooms or grant access to them")
    return None


def streamlit_argv(settings: Settings) -> list[str]:
    return [sys.executable, "-m", "app.serve", "run", str(MAIN),
            "--secrets.files", str(settings.auth.secrets_file.resolve()),
            "--server.address", settings.app.host, "--server.port", str(settings.app.port),
            "--server.headless", "true", "--browser.gatherUsageStats", "false"]


def main() -> int:
    """Takes no arguments (a forwarded --server.address would get past the check): settings decide."""
    settings = get_settings()
    problem = binding_problem(settings.app.host, settings)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if warning := setup_warning(settings):
        print(warning, file=sys.stderr)
    args = streamlit_argv(settings)
    os.chdir(REPO_ROOT)  # .streamlit/config.toml (theme, upload size) is read from the working directory
    # the workspace is resolved now: a relative one means the caller's directory, not the repository
    os.environ["DATAROOM_WORKSPACE"] = str(settings.workspace.resolve())
    os.execv(sys.executable, args)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
