"""Reply parsing: the candidate is the last complete fenced code block that defines ModelNew."""

from __future__ import annotations

import re
from dataclasses import dataclass

_THINK = re.compile(r"<think>.*?(</think>|$)", re.S | re.I)
_FENCE = re.compile(r"^[ \t]*```[ \t]*([\w+.-]*)[^\n]*\n(.*?)^[ \t]*```[ \t]*$", re.S | re.M)
_MODEL_NEW = re.compile(r"^\s*class\s+ModelNew\b", re.M)


@dataclass
class Parsed:
    code: str | None
    problem: str | None  # why no usable code was found (shown to the model as feedback)


def extract_candidate(reply: str) -> Parsed:
    """Pick the candidate out of a model reply.

    Reasoning inside <think>...</think> is ignored (it often holds drafts). Among the
    complete fenced blocks, the last one defining ``class ModelNew`` wins: models
    commonly restate the reference first and give their answer last.
    """
    text = _THINK.sub("", reply or "")
    blocks = [m.group(2) for m in _FENCE.finditer(text)]
    for code in reversed(blocks):
        if _MODEL_NEW.search(code):
            return Parsed(code=code.rstrip() + "\n", problem=None)
    opened = len(re.findall(r"^[ \t]*```", text, re.M))
    if opened % 2 == 1 and _MODEL_NEW.search(text.split("```")[-1]):
        return Parsed(None, "your last code block is not closed with ``` (the reply was probably cut off at the "
                            "token limit); send the complete file again, shorter if needed")
    if blocks:
        return Parsed(None, f"none of the {len(blocks)} code block(s) in your reply defines `class ModelNew(nn.Module)`; "
                            "reply with one complete Python file that defines ModelNew")
    if _MODEL_NEW.search(text):
        return Parsed(None, "your reply defines ModelNew outside a fenced code block; put the complete file in one "
                            "```python ... ``` block")
    return Parsed(None, "your reply contains no code; reply with one complete Python file in a ```python ... ``` block "
                        "that defines `class ModelNew(nn.Module)`")
