"""When sign-in counts as configured, and what that changes about where `python -m app` may listen."""

from __future__ import annotations

import os
import subprocess
import sys

from core.settings import REPO_ROOT, Settings

from app import launch
from app.session import auth_config

COMPLETE = ('[auth]\nredirect_uri = "https://dd.firm.example/oauth2callback"\ncookie_secret = "x"\n'
            'client_id = "c"\nclient_secret = "s"\nserver_metadata_url = "https://idp.example/.well-known/openid-configuration"\n')
NAMED = ('[auth]\nredirect_uri = "https://dd.firm.example/oauth2callback"\ncookie_secret = "x"\n'
         '[auth.firm]\nclient_id = "c"\nclient_secret = "s"\nserver_metadata_url = "https://idp.example/m"\n')


def test_what_counts_as_configured(tmp_path):
    p = tmp_path / "secrets.toml"
    assert auth_config.missing(auth_config.auth_section(p)) == ["[auth] section"]  # no file
    p.write_text(COMPLETE)
    assert auth_config.signin_configured(p) and auth_config.provider(auth_config.auth_section(p)) == "default"
    p.write_text(NAMED)
    assert auth_config.signin_configured(p) and auth_config.provider(auth_config.auth_section(p)) == "firm"
    p.write_text(COMPLETE.replace('cookie_secret = "x"\n', ""))
    assert auth_config.missing(auth_config.auth_section(p)) == ["cookie_secret"]
    p.write_text(COMPLETE.replace('client_secret = "s"\n', ""))
    assert auth_config.missing(auth_config.auth_section(p)) == ["client_secret"]
    p.write_text("[auth\nbroken")
    assert not auth_config.signin_configured(p)


def test_a_remote_address_needs_signin_or_the_override(tmp_path):
    secrets = tmp_path / "secrets.toml"
    settings = Settings(workspace=tmp_path / "ws")
    settings.auth.secrets_file = secrets
    assert "no sign-in" in launch.binding_problem("0.0.0.0", settings)
    secrets.write_text(COMPLETE.replace('client_id = "c"\n', ""))  # incomplete: still refused
    assert "no sign-in" in launch.binding_problem("0.0.0.0", settings)
    secrets.write_text(COMPLETE)
    assert launch.binding_problem("0.0.0.0", settings) is None and launch.binding_problem("10.1.2.3", settings) is None
    # the running server decides from its own secrets (app/main.py passes auth.signin_enabled())
    assert "no sign-in" in launch.runtime_problem("0.0.0.0", False, settings, signin=False)
    assert launch.runtime_problem("0.0.0.0", False, settings, signin=True) is None
    # the launcher hands Streamlit the same file it checked
    argv = launch.streamlit_argv(settings)
    assert argv[argv.index("--secrets.files") + 1] == str(secrets.resolve())


def test_launcher_refuses_a_remote_address_with_an_incomplete_auth_section(tmp_path):
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(COMPLETE.replace('server_metadata_url', 'server_metadata'))
    env = {**os.environ, "DATAROOM_APP__HOST": "0.0.0.0", "DATAROOM_WORKSPACE": str(tmp_path / "ws"),
           "DATAROOM_AUTH__SECRETS_FILE": str(secrets)}
    env.pop("DATAROOM_APP__ALLOW_UNAUTHENTICATED_REMOTE", None)
    p = subprocess.run([sys.executable, str(REPO_ROOT / "app" / "launch.py")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "no sign-in" in p.stderr and str(secrets) in p.stderr


def test_signin_without_an_admin_is_announced(tmp_path):
    from app.session import auth

    settings = Settings(workspace=tmp_path / "ws")
    settings.auth.secrets_file = tmp_path / "secrets.toml"
    assert launch.setup_warning(settings) is None  # no sign-in: the local user may do everything
    settings.auth.secrets_file.write_text(COMPLETE)
    assert "DATAROOM_AUTH__ADMINS is empty" in launch.setup_warning(settings)
    assert "DATAROOM_AUTH__ADMINS is empty" in auth.NO_ADMINS  # and every page says so to the signed-in
    settings.auth.admins = ["counsel@firm.example"]
    assert launch.setup_warning(settings) is None

