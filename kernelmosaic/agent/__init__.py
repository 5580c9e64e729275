"""The agent loop: LLMs, prompts, reply parsing, feedback, the Episode and the runner.

Uses the verifier only through ``kernelmosaic.verify``'s public API.
"""

from .episode import Episode, EpisodeConfig, EpisodeResult
from .feedback import render_feedback
from .parse import extract_candidate
from .llm import LLM, Completion, LLMError, OpenAILLM, SamplingConfig, ScriptedLLM, TransformersLLM
from .runner import write_solution

__all__ = [
    "Completion",
    "Episode",
    "EpisodeConfig",
    "EpisodeResult",
    "LLMError",
    "OpenAILLM",
    "LLM",
    "SamplingConfig",
    "ScriptedLLM",
    "TransformersLLM",
    "extract_candidate",
    "make_llm",
    "render_feedback",
    "write_solution",
]


def make_llm(provider: str, model: str, *, base_url: str | None = None, api_key: str | None = None,
                sampling: SamplingConfig | None = None, adapter: str | None = None, concurrency: int = 8,
                timeout_s: float = 600.0, retries: int = 4, extra_body: dict | None = None,
                enable_thinking: bool | None = None) -> LLM:
    """``openai`` (any OpenAI-compatible endpoint) or ``transformers`` (a local model).

    ``enable_thinking``: for an endpoint, ``chat_template_kwargs.enable_thinking`` in the request's
    extra body (the vLLM/SGLang convention); for a local model, the chat template's own argument."""
    from .llm import thinking_body

    if provider == "openai":
        return OpenAILLM(model, base_url=base_url, api_key=api_key, sampling=sampling, concurrency=concurrency,
                            timeout_s=timeout_s, retries=retries, extra_body=thinking_body(extra_body, enable_thinking))
    if provider == "transformers":
        if extra_body:
            raise ValueError("--extra-body is sent to an endpoint; the transformers provider has none "
                             "(use --enable-thinking for the chat template's switch)")
        return TransformersLLM(model, adapter=adapter, sampling=sampling, enable_thinking=enable_thinking)
    raise ValueError(f"unknown provider {provider!r} (openai or transformers)")
