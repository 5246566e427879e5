"""One validated settings object; the only code that reads the environment.

Env vars use the prefix DATAROOM_ and `__` for nesting, e.g.
DATAROOM_WORKSPACE=/data/ws, DATAROOM_INGEST__MAX_FILE_MB=50,
DATAROOM_LLM__ROOT_MODEL=gpt-4o-mini. A `.env` file in the working
directory is read too.
"""

from __future__ import annotations

import os
import re
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent
ASSETS = REPO_ROOT / "assets"

# A room name or run id becomes one folder name under the workspace: a word character first (never "." or
# ".."), then word characters, space, '.', '_' or '-'; no separator, so it cannot leave its parent folder.
NAME_RE = re.compile(r"[\w][\w .-]{0,199}", re.UNICODE)


def check_name(kind: str, value: str) -> str:
    """`value` if it is a safe room name / run id, else ValueError naming what was wrong."""
    if not isinstance(value, str) or not NAME_RE.fullmatch(value) or value != value.strip():
        raise ValueError(f"invalid {kind} {value!r}: use letters, digits, space, '.', '_' or '-', "
                         "starting with a letter or digit (at most 200 characters)")
    return value


class IngestSettings(BaseModel):
    max_file_mb: float = Field(100.0, description="Files larger than this are skipped with a reason.")
    max_zip_total_mb: float = Field(2048.0, description="Refuse a zip whose entries expand past this in total.")
    max_zip_ratio: float = Field(200.0, description="Refuse a zip entry whose compression ratio exceeds this (zip bomb).")
    max_zip_entries: int = Field(20000, description="Refuse a zip with more entries than this.")
    workers: int = Field(0, description="Parser processes; 0 means one per CPU core.")
    chunk_max_chars: int = Field(2000, description="Hard upper bound on a chunk's length.")
    chunk_new_after_chars: int = Field(1500, description="Soft bound: start a new chunk after this many characters.")
    chunk_combine_under_chars: int = Field(300, description="Merge title sections shorter than this with the next.")
    ocr_fallback: bool = Field(False, description="Opt-in OCR for pages without a text layer (needs tesseract).")
    file_timeout_s: float = Field(300.0, description="A file whose parsing takes longer than this fails with a reason.")
    ray_address: str = Field(
        "", description="Ray cluster to parse on (e.g. 127.0.0.1:6379); empty = local parser processes. "
        "The workspace must be at the same path on every Ray node (ingest/distributed/ray_exec.py)."
    )
    ray_allow_unauthenticated: bool = Field(
        False, description="Join a Ray cluster that does not use token authentication (RAY_AUTH_MODE=token). "
        "Ray's servers listen on every interface; without a token anyone who reaches them runs code on them."
    )

    def worker_count(self) -> int:
        return self.workers if self.workers > 0 else max(1, os.cpu_count() or 1)


class EmbeddingSettings(BaseModel):
    model: Literal["minilm", "hash"] = Field(
        "minilm",
        description="'minilm': all-MiniLM-L6-v2 ONNX shipped inside an installed package; "
        "'hash': a dependency-free hashing embedder for tests of code that does not care about semantics.",
    )
    batch_size: int = Field(64, description="Chunks embedded per batch by the numpy MiniLM (the ONNX one embeds one at a time).")
    threads: int = Field(1, description="BLAS threads for the numpy MiniLM (runtime 'numpy'); 1 leaves the cores to the parser processes.")
    runtime: Literal["onnx", "numpy"] = Field(
        "onnx", description="How 'minilm' runs: 'onnx' = the int8 graph in assets/embedder/ on onnxruntime (fast); "
        "'numpy' = the fp32 reference forward pass (slow; vectors differ by a cosine of ~0.006, same 384 dims)."
    )
    onnx_threads: int = Field(0, description="chunks embedded at once by runtime 'onnx' (one onnxruntime thread each); 0 = one per available core.")


class ChromaSettings(BaseModel):
    mode: Literal["persistent", "http"] = Field("persistent", description="Embedded store in the workspace, or a server.")
    host: str = Field("localhost", description="Chroma server host (mode=http).")
    port: int = Field(8000, description="Chroma server port (mode=http).")


class LLMSettings(BaseModel):
    base_url: str = Field("", description="OpenAI-compatible endpoint; empty means the built-in offline reviewer.")
    api_key: SecretStr = Field(SecretStr(""), description="API key; a dummy is sent to keyless local servers.")
    root_model: str = Field("gpt-4o-mini", description="Model for the root agent.")
    sub_model: str = Field("gpt-4o-mini", description="Model for the sub-agents.")
    sub_base_url: str = Field("", description="Separate endpoint for sub-agents; empty means base_url.")
    timeout_s: float = Field(120.0, description="Per-request timeout.")
    max_retries: int = Field(5, description="Retries on 429 / 5xx / timeouts / malformed output.")
    temperature: float = Field(0.0, description="Sampling temperature.")

    @property
    def offline(self) -> bool:
        return not self.base_url


class HarnessSettings(BaseModel):
    sub_context_tokens: int = Field(24000, description="Context budget of one sub-agent, in tokens.")
    sub_prompt_reserve_tokens: int = Field(4000, description="Part of the budget kept for instructions and output.")
    max_concurrency: int = Field(8, description="Sub-agents running at once.")
    max_waves: int = Field(
        16, ge=1, description="Delegate the planned batches in at most this many waves once a wave fills the "
        "concurrency cap: each wave is a root step, a memo refresh and a checkpoint of the whole run state, so a "
        "bounded number keeps checkpoint storage linear in the room's size."
    )
    max_depth: int = Field(2, description="How deep a long document may be split across child sub-agents.")
    coverage_target: float = Field(1.0, description="Share of parsed documents to review before finishing.")
    max_run_tokens: int = Field(5_000_000, description="Stop delegating once a run has used this many metered tokens (the offline reviewer bills none).")
    max_run_calls: int = Field(5000, description="Stop delegating once a run has made this many metered model calls.")
    max_run_seconds: float = Field(3600.0, description="Stop delegating after this much wall time.")
    followup_k: int = Field(5, description="Search hits re-reviewed per checklist item with no findings.")
    as_of: date | None = Field(
        None, description="Date the review speaks as of: provisions of agreements that ended, or sections an amendment "
        "deleted, before it are graded info, not red flags. Empty = the day the run finishes."
    )
    sub_fallback_offline: bool = Field(
        True, description="When a model sub-agent's reply is unusable after its retries (no valid review JSON), "
        "review that document with the built-in reviewer instead and record it (run summary, trajectory, the "
        "findings' agent). Endpoint errors (HTTP, timeouts) are not covered: they count towards the breaker."
    )
    breaker_consecutive_failures: int = Field(
        5, ge=0, description="Stop the run (status failed, resumable) after this many sub-agent assignments in a row "
        "failed: an endpoint that keeps failing is not called hundreds of times. 0 turns this rule off."
    )
    breaker_failure_rate: float = Field(
        0.5, ge=0.0, le=1.0, description="Also stop once at least this share of the run's sub-agent assignments "
        "failed (counted from breaker_min_assignments on). 0 turns this rule off."
    )
    breaker_min_assignments: int = Field(
        20, ge=1, description="Assignments a run must have tried before breaker_failure_rate applies."
    )
    assignment_delay_s: float = Field(
        0.0, description="Test/benchmark only: sleep this long in each sub-agent assignment (makes kill tests deterministic)."
    )


class AppSettings(BaseModel):
    host: str = Field("127.0.0.1", description="Address the Streamlit server binds to (`python -m app` reads it).")
    port: int = Field(8501, description="Port of the Streamlit server.")
    author: str = Field("reviewer", description="Name recorded with reviewer actions.")
    allow_unauthenticated_remote: bool = Field(
        False, description="Let `python -m app` bind to a non-loopback address without sign-in configured. Anyone "
        "who reaches the port can then read every room and run; set it only behind your own access control."
    )
    folder_ingest_root: Path | None = Field(
        None, description="The 'Folder on this machine' ingest option is offered only when this is set, and only "
        "folders inside it (symlinks resolved) can be ingested. Empty = upload a zip only."
    )


class AuthSettings(BaseModel):
    """Sign-in (team mode). Off until the secrets file has an [auth] section: then every page needs a signed-in
    user and per-room access applies; without it the app is one local user (app.author) who may do everything."""

    admins: list[str] = Field(
        default_factory=list, description="E-mail addresses of the admins (see every room, create rooms, grant "
        "access), e.g. DATAROOM_AUTH__ADMINS='[\"partner@firm.example\"]'. Everyone else sees only the rooms "
        "granted to them."
    )
    secrets_file: Path = Field(
        REPO_ROOT / ".streamlit" / "secrets.toml", description="Streamlit secrets file whose [auth] section "
        "configures OpenID Connect sign-in (st.login); `python -m app` passes it to Streamlit."
    )


class DatabaseSettings(BaseModel):
    url: SecretStr = Field(
        SecretStr(""),
        description="PostgreSQL URL (postgresql://user:password@host:5432/db) for the review store and LangGraph's "
                    "checkpoints in team mode; empty means SQLite files in the workspace.")

    def dsn(self) -> str:
        return self.url.get_secret_value().strip()


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="DATAROOM_", env_nested_delimiter="__", env_file=".env", extra="ignore"
    )

    workspace: Path = Field(Path("workspace"), description="Folder holding rooms, stores, runs and checkpoints.")
    checklist_path: Path = Field(ASSETS / "checklist.yaml", description="Diligence checklist (YAML).")
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    chroma: ChromaSettings = Field(default_factory=ChromaSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    harness: HarnessSettings = Field(default_factory=HarnessSettings)
    app: AppSettings = Field(default_factory=AppSettings)
    auth: AuthSettings = Field(default_factory=AuthSettings)
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)

    # Workspace layout: one place that knows where things live.
    def rooms_dir(self) -> Path:
        return self.workspace / "rooms"

    def room_dir(self, room: str) -> Path:
        return self.rooms_dir() / check_name("room name", room)

    def chroma_dir(self) -> Path:
        return self.workspace / "chroma"

    def runs_dir(self) -> Path:
        return self.workspace / "runs"

    def run_dir(self, run_id: str) -> Path:
        return self.runs_dir() / check_name("run id", run_id)

    def room_exists(self, room: str) -> bool:
        """The room was ingested (it has a manifest); False for a name that is not a valid room name."""
        try:
            return (self.room_dir(room) / "manifest.sqlite").is_file()
        except ValueError:
            return False

    def db_path(self) -> Path:
        """SQLite for findings, memo versions, reviewer actions and events."""
        return self.workspace / "review.sqlite"

    def checkpoint_path(self) -> Path:
        return self.workspace / "checkpoints.sqlite"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
