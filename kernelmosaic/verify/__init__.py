"""Candidate -> Verdict (PROTOCOL.md).

Public API::

    from kernelmosaic.verify import Verifier, VerifyRequest, TimingConfig, Verdict

Importing this package is cheap (stdlib only). Judge processes (``worker.py``, ``judge.py``)
import torch; candidate processes (``candidate.py``, sandboxed by ``sandbox.py``) import the
launchers ``kernelmosaic.verify.nvrtc`` and ``kernelmosaic.verify.cc``.
"""

from .policy import StaticReport, check_candidate
from .verdict import BACKENDS, POLICIES, STATUSES, Verdict
from .verifier import TimingConfig, Verifier, VerifyRequest, baseline_entries, clear_baselines

__all__ = [
    "BACKENDS",
    "POLICIES",
    "STATUSES",
    "StaticReport",
    "TimingConfig",
    "Verdict",
    "Verifier",
    "VerifyRequest",
    "baseline_entries",
    "check_candidate",
    "clear_baselines",
]
