"""Trajectory records and their crash-safe SQLite store.

    from kernelmosaic.data import Store, TurnRecord, episode_key
"""

from .schema import (
    EPISODE_STATUSES,
    FIXABLE,
    STAGES,
    EpisodeRecord,
    RunRecord,
    TurnRecord,
    episode_key,
    no_code_verdict,
)
from .store import SCHEMA_VERSION, Store, StoreError

__all__ = [
    "EPISODE_STATUSES",
    "FIXABLE",
    "SCHEMA_VERSION",
    "STAGES",
    "EpisodeRecord",
    "RunRecord",
    "Store",
    "StoreError",
    "TurnRecord",
    "episode_key",
    "no_code_verdict",
]
