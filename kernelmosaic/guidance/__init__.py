"""Reusable CUDA guidance: a versioned knowledge base and the matcher that picks entries for a Verdict.

The agent loop shows a model its failed verdict together with a few entries of
``entries.json`` (shipped with this package) chosen for that verdict::

    from kernelmosaic.guidance import load_default

    kb = load_default()
    matches = kb.match(verdict_dict, k=3)          # stage inferred: repair, or optimize when correct
    prompt_block = kb.render(matches)              # "### Guidance\\n- [id] title: text\\n  example: ..."

Entry format
------------
``{"id", "title", "category", "triggers": [...], "text", "example"}``; ``category`` is one of
compile, launch, memory, sync, numerics, correctness, policy, optimize, triton, cpu.

Trigger language
----------------
A trigger is a dict; every key it gives must hold for it to fire, and an entry fires when
any of its triggers fires. Keys:

``status``      list of verdict statuses (``compile_error``, ``incorrect``, ...)
``backend``     list of backends (``cuda``, ``nvrtc``, ``triton``, ``cpp``)
``error_kind``  list of ``error.kind`` values (``compile``, ``cuda``, ``exception``, ``timeout``,
                ``crash``, ``mismatch``, ``precision``, ``rule``, ...)
``rule``        list of rejection rules; fires if any rejection has one of them
``pattern``     a Python regex searched case-insensitively over ``error.message``, ``error.log``,
                ``mismatch.reason`` and the rejection details (joined by newlines)
``mismatch``    one class (or a list, any of which may hold): ``nan`` (NaN/Inf where the
                reference differs), ``rel_norm_high`` (relative norm error >= 0.05: the logic
                is wrong), ``small`` (mismatch with relative norm error < 0.05: precision or a
                formula detail), ``shape``, ``dtype``, ``partial`` (under 90% of the elements
                wrong), ``all`` (90% or more wrong)
``timing``      one class (or a list): ``slower_than_eager``, ``slower_than_compile``, ``faster``
``stage``       list of agent stages: ``implement``, ``repair``, ``optimize``. When ``match`` gets
                no stage it infers ``optimize`` for a correct verdict and ``repair`` otherwise.
``task``        (extension) a regex searched case-insensitively in the task name, e.g.
                ``Matmul|Gemm|matrix`` for GEMM-like tasks
``weight``      a positive number, default 1.0

An entry may also give ``done_when``: a regex (case-sensitive) searched in the judged candidate's
code, when the caller passes it (``match(..., code=...)``, as the agent loop does). Where it
matches, the code already does what the entry advises (``float4`` loads, ``wmma``, warp
shuffles), and the entry is not shown.

Scoring: a fired trigger contributes ``weight * specificity``, where specificity sums a value
per key (``pattern`` and ``rule`` 3, ``mismatch`` and ``task`` 2, ``timing`` and ``error_kind``
1.5, ``status`` 0.5, ``backend`` and ``stage`` 0.25), so a regex or rule hit outranks a
status-only trigger. An entry's score is the sum over its fired triggers; ties break by id.

Regexes are compiled once when the file loads; a bad regex, an unknown key or value, or a
duplicate id raises ``ValueError`` naming the entry.

``mine.propose_entries`` drafts new entries from (failed turn, fixing turn) pairs whose errors
no entry covers; drafts go to a review file and are never merged automatically.
"""

from .kb import CATEGORIES, Entry, KnowledgeBase, Match, Trigger, load_default
from .mine import error_signature, propose_entries, write_proposals

__all__ = [
    "CATEGORIES",
    "Entry",
    "KnowledgeBase",
    "Match",
    "Trigger",
    "error_signature",
    "load_default",
    "propose_entries",
    "write_proposals",
]
