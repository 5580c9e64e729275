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
                timeout_s: float = 600.0, retries: int = 4) -> LLM:
    """``openai`` (any OpenAI-compatible endpoint) or ``transformers`` (a local model)."""
    if provider == "openai":
        return OpenAILLM(model, base_url=base_url, api_key=api_key, sampling=sampling, concurrency=concurrency,
                            timeout_s=timeout_s, retries=retries)
    if provider == "transformers":
        return TransformersLLM(model, adapter=adapter, sampling=sampling)
    raise ValueError(f"unknown provider {provider!r} (openai or transformers)")
