"""LLMs: anything that turns chat messages into a reply.

(Named ``llm`` so that "policy" means one thing in this package: the verifier's rule set,
``kernelmosaic.vocab.Policy``.)

- ``OpenAILLM``: any OpenAI-compatible endpoint (vLLM, SGLang, hosted APIs) through the
  official ``openai`` client.
- ``TransformersLLM``: a local model (path or hub id) in this process, optionally with a
  LoRA adapter, batched generation.
- ``ScriptedLLM``: fixed replies, for tests.

Each call returns a ``Completion`` with the text, token usage and latency, which the
episode records per turn.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

Messages = list[dict[str, str]]


@dataclass
class Completion:
    text: str
    usage: dict[str, int] = field(default_factory=dict)  # prompt_tokens, completion_tokens, total_tokens
    latency_s: float = 0.0
    finish_reason: str | None = None
    # a reasoning model's thinking, when the endpoint returns it apart from the reply
    # (vLLM/SGLang reasoning parsers: ``message.reasoning_content``); None when it does not
    reasoning: str | None = None


class LLMError(RuntimeError):
    """The LLM could not produce a reply (endpoint down, retries exhausted, bad model)."""


class LLM(Protocol):
    name: str

    def complete(self, messages: Messages) -> Completion: ...


@dataclass
class SamplingConfig:
    temperature: float = 0.7
    top_p: float = 0.95
    max_tokens: int = 8192


class OpenAILLM:
    """Chat completions from an OpenAI-compatible server.

    Retries with exponential backoff on connection errors, 408/409/429 and 5xx are the
    ``openai`` client's own (``max_retries``; it honours Retry-After). A semaphore caps
    requests in flight so a generate run cannot flood a small vLLM server.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        sampling: SamplingConfig | None = None,
        timeout_s: float = 600.0,
        retries: int = 4,
        concurrency: int = 8,
        extra_body: dict | None = None,
    ):
        import os

        from openai import OpenAI

        self.name = model
        self.model = model
        self.sampling = sampling or SamplingConfig()
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or None
        if base_url is None and api_key is None:
            # without either, the client would quietly send requests to the vendor's host
            # with a made-up key: say instead that no endpoint was given
            raise ValueError("no endpoint given: pass --base-url (or set OPENAI_BASE_URL), e.g. "
                             "http://localhost:8000/v1 for a local vLLM or SGLang server, or an API key "
                             "(--api-key / OPENAI_API_KEY) for the vendor's hosted endpoint")
        # local servers accept any key; the client insists on having one
        key = api_key or "EMPTY"
        self.client = OpenAI(base_url=base_url, api_key=key,
                             timeout=timeout_s, max_retries=retries)
        self._slots = threading.BoundedSemaphore(max(1, concurrency))
        self.extra_body = extra_body or {}
        self._init_kw = dict(base_url=str(self.client.base_url), api_key=key, sampling=self.sampling, timeout_s=timeout_s,
                             retries=retries, concurrency=concurrency, extra_body=self.extra_body)

    def __reduce__(self):
        # the client holds sockets and locks: a copy sent to another process (a Ray task)
        # builds its own client from the same settings
        return (_rebuild_openai_llm, (self.model, self._init_kw))

    def complete(self, messages: Messages) -> Completion:
        import openai

        t0 = time.perf_counter()
        with self._slots:
            try:
                r = self.client.chat.completions.create(
                    model=self.model,
                    messages=messages,
                    temperature=self.sampling.temperature,
                    top_p=self.sampling.top_p,
                    max_tokens=self.sampling.max_tokens,
                    extra_body=self.extra_body or None,
                )
            except openai.APIStatusError as e:
                raise LLMError(f"the endpoint answered HTTP {e.status_code}: {_short(e.message)}") from None
            except openai.APIConnectionError as e:
                raise LLMError(f"cannot reach the endpoint at {self.client.base_url}: {_short(str(e))}") from None
            except openai.OpenAIError as e:
                raise LLMError(f"{type(e).__name__}: {_short(str(e))}") from None
        if not r.choices:
            raise LLMError("the endpoint returned no choices")
        choice = r.choices[0]
        usage = {}
        if r.usage is not None:
            usage = {"prompt_tokens": r.usage.prompt_tokens or 0, "completion_tokens": r.usage.completion_tokens or 0,
                     "total_tokens": r.usage.total_tokens or 0}
        return Completion(text=choice.message.content or "", usage=usage, latency_s=time.perf_counter() - t0,
                          finish_reason=choice.finish_reason, reasoning=_reasoning(choice.message))


def _reasoning(message) -> str | None:
    """The thinking a reasoning parser split off the reply. The openai client keeps fields it does
    not model in ``model_extra``: vLLM and SGLang name it ``reasoning_content`` (newer vLLM also
    ``reasoning``). None when absent or empty, so a model without thinking records nothing."""
    extra = getattr(message, "model_extra", None) or {}
    for key in ("reasoning_content", "reasoning"):
        val = getattr(message, key, None) if key not in extra else extra[key]
        if isinstance(val, str) and val:
            return val
    return None


def thinking_body(extra_body: dict | None, enable_thinking: bool | None) -> dict:
    """The request's extra body with the thinking switch merged in. vLLM and SGLang pass
    ``chat_template_kwargs`` to the chat template, where Qwen3-style templates read
    ``enable_thinking``; keys the caller set in ``chat_template_kwargs`` are kept."""
    body = dict(extra_body or {})
    if enable_thinking is not None:
        kwargs = body.get("chat_template_kwargs") or {}
        if not isinstance(kwargs, dict):
            raise ValueError("extra_body's chat_template_kwargs must be a JSON object")
        body["chat_template_kwargs"] = {**kwargs, "enable_thinking": bool(enable_thinking)}
    return body


def _rebuild_openai_llm(model: str, kw: dict) -> "OpenAILLM":
    return OpenAILLM(model, **kw)


def _short(s: str, n: int = 300) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= n else s[:n] + "..."


class TransformersLLM:
    """A local causal LM with its chat template; optional LoRA adapter (PEFT)."""

    def __init__(
        self,
        model: str,
        *,
        adapter: str | None = None,
        sampling: SamplingConfig | None = None,
        device: str | None = None,
        dtype: str = "auto",
        batch_size: int = 8,
        trust_remote_code: bool = False,
        enable_thinking: bool | None = None,
    ):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.name = model if adapter is None else f"{model}+{adapter}"
        self.sampling = sampling or SamplingConfig()
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.tokenizer = AutoTokenizer.from_pretrained(model, trust_remote_code=trust_remote_code)
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        # decoder-only batches must be left-padded so every row ends where generation starts
        self.tokenizer.padding_side = "left"
        torch_dtype = getattr(torch, dtype) if dtype not in ("auto", None) else "auto"
        self.model = AutoModelForCausalLM.from_pretrained(model, dtype=torch_dtype, trust_remote_code=trust_remote_code)
        if adapter:
            from peft import PeftModel

            self.model = PeftModel.from_pretrained(self.model, adapter)
        self.model.to(self.device).eval()
        if batch_size < 1:
            raise ValueError(f"batch_size must be 1 or more, not {batch_size}")
        self.batch_size = batch_size
        self.enable_thinking = enable_thinking
        self._lock = threading.Lock()  # one generate at a time per model
        self._queue_lock = threading.Lock()
        self._queue: list[_Request] = []  # complete() requests not yet taken into a generate call

    def _prompt(self, messages: Messages) -> str:
        kw = {} if self.enable_thinking is None else {"enable_thinking": self.enable_thinking}
        return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True, **kw)

    def complete(self, messages: Messages) -> Completion:
        """One reply. Callers on several threads (an episode runner's ``concurrency``) are served
        together: whoever gets the model next runs every request queued meanwhile, up to
        ``batch_size``, in one ``generate`` call (a flat combine, no thread of its own). In bf16, a
        greedy row's tokens can depend on what it was batched with (left padding changes the
        kernels' shapes); ``batch_size=1`` serves each request alone."""
        req = _Request(messages)
        with self._queue_lock:
            self._queue.append(req)
        while not req.done:
            with self._lock:
                if req.done:
                    break
                with self._queue_lock:
                    chunk = self._queue[: self.batch_size]
                    del self._queue[: len(chunk)]
                try:
                    outs = self._generate([r.messages for r in chunk])
                except BaseException as e:  # every request of the failed call gets the error, not a hang
                    interrupted = not isinstance(e, Exception)  # Ctrl-C in this thread: the others fail plainly
                    for r in chunk:
                        r.error = LLMError("the generate call serving this request was interrupted") if interrupted else e
                        r.done = True
                    if interrupted:
                        raise
                else:
                    for r, o in zip(chunk, outs):
                        r.result, r.done = o, True
        if req.error is not None:
            raise req.error
        return req.result

    def complete_batch(self, batch: Sequence[Messages]) -> list[Completion]:
        out: list[Completion] = []
        for i in range(0, len(batch), self.batch_size):
            with self._lock:
                out += self._generate(batch[i: i + self.batch_size])
        return out

    def _generate(self, chunk: Sequence[Messages]) -> list[Completion]:
        """One ``generate`` call over ``chunk``; the caller holds the model's lock."""
        import torch

        t0 = time.perf_counter()
        enc = self.tokenizer([self._prompt(m) for m in chunk], return_tensors="pt", padding=True, add_special_tokens=False).to(self.device)
        s = self.sampling
        gen_kw = dict(max_new_tokens=s.max_tokens, pad_token_id=self.tokenizer.pad_token_id)
        if s.temperature > 0:
            gen_kw.update(do_sample=True, temperature=s.temperature, top_p=s.top_p)
        else:
            gen_kw.update(do_sample=False)
        with torch.no_grad():
            seqs = self.model.generate(**enc, **gen_kw)
        dt = time.perf_counter() - t0
        new = seqs[:, enc["input_ids"].shape[1]:]
        out: list[Completion] = []
        for row, ids in enumerate(new):
            n_prompt = int(enc["attention_mask"][row].sum())
            ids_l, eos = ids.tolist(), self.tokenizer.eos_token_id
            # rows that stopped early are padded to the longest; count up to their EOS
            n_new = ids_l.index(eos) + 1 if eos is not None and eos in ids_l else len(ids_l)
            text = self.tokenizer.decode(ids, skip_special_tokens=True)
            out.append(Completion(text=text, usage={"prompt_tokens": n_prompt, "completion_tokens": n_new,
                                                    "total_tokens": n_prompt + n_new},
                                  latency_s=dt / len(chunk)))
        return out


class _Request:
    """A reply a TransformersLLM caller waits for (``complete``)."""

    __slots__ = ("messages", "result", "error", "done")

    def __init__(self, messages: Messages):
        self.messages, self.result, self.error, self.done = messages, None, None, False


class ScriptedLLM:
    """Replies from a list (in order) or a function of the messages. For tests."""

    def __init__(self, replies: Sequence[str] | Callable[[Messages], str], name: str = "scripted"):
        self.name = name
        self._replies = replies
        self._i = 0
        self._lock = threading.Lock()

    def complete(self, messages: Messages) -> Completion:
        if callable(self._replies):
            text = self._replies(messages)
        else:
            with self._lock:
                if self._i >= len(self._replies):
                    raise LLMError("the scripted LLM has no replies left")
                text = self._replies[self._i]
                self._i += 1
        words = sum(len(m["content"].split()) for m in messages)
        return Completion(text=text, usage={"prompt_tokens": words, "completion_tokens": len(text.split()),
                                            "total_tokens": words + len(text.split())})
