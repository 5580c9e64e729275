"""FSDP2 next to TRL's fused LM head, on torch releases that predate PyTorch's own fix.

TRL's SFTTrainer scores tokens with a fused head: it runs the decoder, then reads
``lm_head.weight`` itself instead of calling ``lm_head``. accelerate's FSDP2 puts the final norm
and ``lm_head`` in one sharding group, and FSDP2 unshards a group only once every module of the
group has run forward since the last time. ``lm_head`` never runs, so from the second step on
the norm's weight stays sharded and the forward stops with "aten.mul.Tensor got mixed
torch.Tensor and DTensor" (seen on torch 2.11, 2 H200s). Newer torch clears that bookkeeping at
the end of every backward (``FSDPState._force_complete_incomplete_states`` marks those releases);
on older ones we clear it before every forward of the root module, which is the same reset one
step later.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def torch_needs_group_reset() -> bool:
    """True on torch releases whose FSDP2 keeps a partly-run group's bookkeeping across steps."""
    try:
        from torch.distributed.fsdp._fully_shard._fsdp_state import FSDPState
    except ImportError:  # no FSDP2 in this torch at all: nothing to mend
        return False
    return not hasattr(FSDPState, "_force_complete_incomplete_states")


def _clear_partial_groups(module, args, kwargs):
    get_state = getattr(module, "_get_fsdp_state", None)
    if get_state is None:  # not sharded (yet): accelerate shards the model inside trainer.train()
        return None
    for state in getattr(getattr(get_state(), "_state_ctx", None), "all_states", ()):
        pending = getattr(state, "_modules_to_run_forward", None)
        if pending:
            pending.clear()
    return None


def mend_partial_groups(model) -> bool:
    """Install the reset on ``model`` (the module accelerate will shard) where this torch needs
    it. Returns whether it did."""
    if not torch_needs_group_reset():
        return False
    model.register_forward_pre_hook(_clear_partial_groups, with_kwargs=True, prepend=True)
    log.info("FSDP2: resetting partly-run sharding groups before each forward (this torch predates the fix)")
    return True
