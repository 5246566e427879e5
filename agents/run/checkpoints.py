"""LangGraph's checkpointer for a run: PostgreSQL when `database.url` is set (team mode), else the workspace's
SQLite file. Thread id = run id on both, so a killed run resumes from its last checkpoint either way."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from core.settings import Settings


@asynccontextmanager
async def open_checkpointer(settings: Settings) -> AsyncIterator[BaseCheckpointSaver]:
    url = settings.database.dsn()
    if not url:
        settings.checkpoint_path().parent.mkdir(parents=True, exist_ok=True)
        import aiosqlite

        # A run stopped by an exception (the circuit breaker, a cancel) leaves the cursors of the checkpoint
        # writes it cancelled in reference cycles; until they are collected, sqlite keeps that closed connection
        # alive with its write lock, and a resume in the same process waited 30 s per write and failed "database
        # is locked" (test_breaker, 1 run in 3). Collecting here, once the stopped run's traceback is gone,
        # frees it. The app's runs are processes of their own; this is for callers that run twice in one.
        gc.collect()
        # 30 s to wait for a lock, as the review store does (from_conn_string's default is sqlite's 5 s): on a
        # loaded machine a resume's first checkpoint write met the stopped run's last one and failed "locked"
        async with aiosqlite.connect(str(settings.checkpoint_path()), timeout=30) as conn:
            yield AsyncSqliteSaver(conn)
        return
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver  # only team mode needs psycopg

    async with AsyncPostgresSaver.from_conn_string(url) as saver:
        await saver.setup()  # creates or migrates its tables; a no-op once they are current
        yield saver
