"""Training targets: which assistant replies of a row carry loss, and how much history a row keeps.

TRL's ``assistant_only_loss`` puts loss on every assistant message of a chat. An iterative row
holds the failed first attempts too, and the filler reply to a summary of older turns, so that
is one choice among three (``data.loss_turns``):

* ``all``: every assistant reply (TRL's own choice);
* ``progress``: the replies that made progress, per the export's ``assistant_progress`` column
  (the first turn when correct, and each turn that ends a repair or optimize step);
* ``final``: the row's last reply only (in the iterative view, the best turn's).

History (``data.history_turns``): a row keeps its head (the system and task prompts, and any
summary) and the last k turns, a turn being one assistant reply and the prompt that followed it.
With or without k, a row longer than ``max_length`` tokens drops its oldest turns until it fits,
where TRL would cut its end and with it the final reply; a row whose last turn alone is too long
is still truncated (and counted).

The rows are tokenized here with the same chat template TRL would use (the tokenizer's, or TRL's
training template when it lacks ``{% generation %}`` markers) and handed to ``SFTTrainer`` as
``input_ids`` + ``assistant_masks``, from which it builds the labels. Each assistant message is one
contiguous run of ones in the template's assistant mask; a run is zeroed when its reply carries no
loss.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .config import ConfigError

LOSS_TURNS = ("all", "progress", "final")
PROGRESS_COLUMN = "assistant_progress"


@dataclass
class TargetStats:
    rows_in: int = 0
    rows: int = 0  # rows kept for training
    rows_without_loss: int = 0  # dropped: no reply of theirs carried loss
    rows_shortened: int = 0  # lost turns (history_turns, or to fit max_length)
    turns_dropped: int = 0
    rows_over_length: int = 0  # still longer than max_length with one turn left: truncated at the end
    tokens: int = 0  # tokens of the kept rows (after history, before any truncation)
    loss_tokens: int = 0  # tokens that carry loss
    replies: int = 0  # assistant messages in the kept rows
    loss_replies: int = 0  # of which carry loss

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def training_template(tokenizer) -> str | None:
    """The template TRL's assistant-only loss would render with: None for the tokenizer's own
    (it has ``{% generation %}`` markers), else TRL's training template for that family."""
    from trl.chat_template_utils import get_training_chat_template, has_generation_markers

    if has_generation_markers(tokenizer.chat_template):
        return None
    try:
        return get_training_chat_template(tokenizer)
    except ValueError as e:  # a family TRL has no training template for
        raise ConfigError(f"the chat template has no {{% generation %}} markers and TRL has no training template "
                          f"for it ({e}); loss per reply needs one") from None


def split_turns(messages: list[dict], flags: list[bool] | None) -> tuple[list[dict], list[list[dict]], list[bool] | None]:
    """(head, turns, flags per turn): the head is everything before the first assistant message;
    each turn is an assistant message and the messages up to the next one."""
    first = next((i for i, m in enumerate(messages) if m["role"] == "assistant"), None)
    if first is None:
        return list(messages), [], flags
    head, turns = list(messages[:first]), []
    for m in messages[first:]:
        if m["role"] == "assistant":
            turns.append([m])
        else:
            turns[-1].append(m)
    return head, turns, flags


def encode(tokenizer, template: str | None, messages: list[dict]) -> tuple[list[int], list[int]]:
    enc = tokenizer.apply_chat_template(messages, chat_template=template, tokenize=True, return_dict=True,
                                        return_assistant_tokens_mask=True)
    return list(enc["input_ids"]), list(enc["assistant_masks"])


def runs_of_ones(mask: list[int]) -> list[tuple[int, int]]:
    """[start, end) of each run of ones."""
    runs, start = [], None
    for i, v in enumerate(mask):
        if v and start is None:
            start = i
        elif not v and start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(mask)))
    return runs


def _clean(messages: list[dict]) -> list[dict]:
    """Messages as the template expects them: a null reasoning_content (a column of the export kept
    for every message) is left out, so a template that tests ``is defined`` sees none."""
    return [{k: v for k, v in m.items() if not (k == "reasoning_content" and v is None)} for m in messages]


def build_row(tokenizer, template: str | None, messages: list[dict], flags: list[bool] | None, *, loss_turns: str,
              history_turns: int | None, max_length: int, stats: TargetStats) -> dict[str, list[int]] | None:
    """One training row (input_ids, assistant_masks), or None when no reply carries loss."""
    stats.rows_in += 1
    messages = _clean(messages)
    n_asst = sum(m["role"] == "assistant" for m in messages)
    if flags is not None and len(flags) != n_asst:
        raise ConfigError(f"a row has {n_asst} assistant messages but {len(flags)} {PROGRESS_COLUMN} flags")
    head, turns, _ = split_turns(messages, flags)
    tflags = list(flags) if flags is not None else [True] * len(turns)
    start = 0 if history_turns is None else max(0, len(turns) - history_turns)

    def chat(s):
        return head + [m for t in turns[s:] for m in t]

    ids, mask = encode(tokenizer, template, chat(start))
    while len(ids) > max_length and start < len(turns) - 1:
        start += 1
        ids, mask = encode(tokenizer, template, chat(start))
    if start:
        stats.rows_shortened += 1
        stats.turns_dropped += start
    if len(ids) > max_length:
        stats.rows_over_length += 1
    kept = turns[start:]
    runs = runs_of_ones(mask)
    if len(runs) != len(kept):
        raise ConfigError(f"the chat template marks {len(runs)} assistant span(s) in a row with {len(kept)} assistant "
                          "message(s); loss per reply needs one span per reply ({% generation %} around each)")
    if loss_turns == "all":
        carry = [True] * len(kept)
    elif loss_turns == "final":
        carry = [False] * (len(kept) - 1) + [True]
    else:
        carry = tflags[start:]
    for (a, b), c in zip(runs, carry):
        if not c:
            mask[a:b] = [0] * (b - a)
    if not any(carry):
        stats.rows_without_loss += 1
        return None
    stats.rows += 1
    stats.tokens += len(ids)
    stats.loss_tokens += sum(mask[:max_length])  # what is past max_length is cut before it is trained on
    stats.replies += len(kept)
    stats.loss_replies += sum(carry)
    return {"input_ids": ids, "assistant_masks": mask}


def check_reasoning_rendered(tokenizer, template: str | None, rows) -> None:
    """A kept ``reasoning_content`` must reach the tokens: a template that ignores the field would
    train without it, silently. Checked on the first row whose final reply has thinking."""
    for messages in rows:
        last = messages[-1] if messages else {}
        text = last.get("reasoning_content")
        if isinstance(text, str) and text.strip():
            rendered = tokenizer.apply_chat_template(_clean(messages), chat_template=template, tokenize=False)
            if text.strip() not in rendered:
                raise ConfigError("the rows keep reasoning_content, but the chat template does not render it; "
                                  "export without --reasoning, or use a template that renders reasoning_content")
            return


def prepare(ds, tokenizer, *, loss_turns: str, history_turns: int | None, max_length: int):
    """A pre-tokenized ``datasets.Dataset`` (input_ids, assistant_masks) and its TargetStats."""
    import datasets

    if loss_turns not in LOSS_TURNS:
        raise ConfigError(f"data.loss_turns must be one of {', '.join(LOSS_TURNS)}, not {loss_turns!r}")
    has_flags = PROGRESS_COLUMN in ds.column_names
    if loss_turns == "progress" and not has_flags:
        raise ConfigError(f"data.loss_turns: progress needs the {PROGRESS_COLUMN!r} column; export the data again "
                          "with this version of kmosaic export")
    template = training_template(tokenizer)
    check_reasoning_rendered(tokenizer, template, ds["messages"])
    stats = TargetStats()
    rows = []
    flags_col = ds[PROGRESS_COLUMN] if has_flags else [None] * ds.num_rows
    for messages, flags in zip(ds["messages"], flags_col):
        row = build_row(tokenizer, template, messages, flags, loss_turns=loss_turns, history_turns=history_turns,
                        max_length=max_length, stats=stats)
        if row is not None:
            rows.append(row)
    if not rows:
        raise ConfigError(f"no row carries loss with data.loss_turns: {loss_turns} ({stats.rows_in} rows read)")
    return datasets.Dataset.from_list(rows), stats
