"""Candidate -> Verdict (PROTOCOL.md).

Public API::

    from kernelmosaic.verify import Verifier, VerifyRequest, TimingConfig, Verdict

Importing this package is cheap (stdlib only): workers import ``harness`` and torch;
candidates import the launchers ``kernelmosaic.verify.nvrtc`` and ``kernelmosaic.verify.cc``.
"""

from .policy import StaticReport, check_candidate
from .verdict import BACKENDS, POLICIES, STATUSES, Verdict
from .verifier import TimingConfig, Verifier, VerifyRequest

__all__ = [
    "BACKENDS",
    "POLICIES",
    "STATUSES",
    "StaticReport",
    "TimingConfig",
    "Verdict",
    "Verifier",
    "VerifyRequest",
    "check_candidate",
]
