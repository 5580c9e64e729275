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
from .store import SCHEMA_VERSION, Store, StoreError, require_store
# the function is exported as export_dataset: a package attribute named "export" would
# shadow the submodule kernelmosaic.data.export (mock.patch paths, import ... as)
from .export import VIEWS, ExportResult, export_dataset, find_contamination, split_tasks

__all__ = [
    "EPISODE_STATUSES",
    "FIXABLE",
    "SCHEMA_VERSION",
    "STAGES",
    "EpisodeRecord",
    "ExportResult",
    "RunRecord",
    "Store",
    "StoreError",
    "TurnRecord",
    "VIEWS",
    "episode_key",
    "export_dataset",
    "find_contamination",
    "no_code_verdict",
    "require_store",
    "split_tasks",
]
