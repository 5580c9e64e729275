"""The Episode: implement (1 turn) -> repair (<= R turns, until correct) -> optimize (<= O turns).

Every turn is handed to ``on_turn`` (the store commits it) before the next one starts, and
an episode can resume from its recorded turns: the state below is a pure function of them.
The best correct kernel is kept; a slower or broken optimization never replaces it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..data import TurnRecord, no_code_verdict
from ..data.best import best_turn
from ..task import Task, TaskError
from .._json import number
from ..verify import TimingConfig, Verdict, Verifier, VerifyRequest
from ..verify.verdict import Target
from ..vocab import NOT_A_VERDICT, Status
from .feedback import render_feedback
from .parse import extract_candidate
from .llm import LLM, LLMError
from .prompts import SYSTEM, optimize_prompt, repair_prompt, task_prompt


@dataclass
class EpisodeConfig:
    backend: str = "cuda"
    policy: str = "strict"  # the verifier's anti-hacking policy
    max_repair: int = 4  # R
    max_optimize: int = 2  # O
    max_tokens: int | None = None  # budget over all turns (prompt + completion)
    max_wall_s: float | None = None
    context_turns: int = 2  # the last k turns kept verbatim; older ones are summarized
    guidance_k: int = 3
    trials: int = 5
    timing: TimingConfig = field(default_factory=TimingConfig)
    # task key -> eager/torch.compile times measured elsewhere (see VerifyRequest.baselines);
    # when given, a task missing from it gets no speedups rather than local baselines
    baselines: dict[str, dict] | None = None
    # Nsight Compute metrics for a correct kernel whose next prompt is an optimize prompt
    # (agent/profiler.py); GPU only, and it says so in the feedback when ncu cannot run
    profile: bool = True
    # an infra_error verdict (the verifier failed, not the candidate; the pool has already run it
    # on fresh judges) is verified again this many times per run of the episode before the
    # episode stops with "infra_error"; the model never sees it and it charges no budget
    infra_reverify: int = 1
    # the verifier's checks on other input shapes (VerifyRequest.shape_variants)
    shape_variants: bool = True

    def given_baselines(self, task_key: str) -> dict | None:
        if self.baselines is None:
            return None
        return self.baselines.get(task_key) or {"eager_ms": None, "compile_ms": None,
                                                "note": "no baseline given for this problem: no speedups"}


@dataclass
class EpisodeResult:
    turns: list[TurnRecord]
    best_turn: int | None
    best_code: str | None
    best_verdict: Verdict | None
    correct: bool
    # why it ended: "optimized", "repair_budget", "token_budget", "wall_budget", "llm_error", "task_error",
    # "infra_error" (the verifier kept failing on its own; rerunning the run resumes the episode)
    stopped: str
    error: str | None = None
    wall_s: float = 0.0

    @property
    def best_speedup(self) -> float | None:
        t = self.best_verdict.timing if self.best_verdict is not None else None
        return number(t.speedup_eager) if t is not None else None


class Episode:
    def __init__(
        self,
        task: Task,
        llm: LLM,
        verifier: Verifier,
        config: EpisodeConfig | None = None,
        *,
        episode_id: str = "",
        guidance=None,
        on_turn: Callable[[TurnRecord], None] | None = None,
    ):
        self.task = task
        self.llm = llm
        self.verifier = verifier
        self.cfg = config or EpisodeConfig()
        self.episode_id = episode_id or task.key
        if guidance is None:
            from ..guidance import load_default

            guidance = load_default()
        self.kb = guidance
        self.on_turn = on_turn
        self._target: Target | None = None  # Episode.target(), looked up on first use
        self._target_known = False

    # -- state, derived from the turns ------------------------------------------------------
    def state(self, turns: list[TurnRecord]) -> dict:
        """best turn, next stage (None: the episode is over), tokens and stage counts."""
        best_i = best_turn(turns)
        # a turn without a verdict on its candidate (infra_error) charges no repair or optimize
        # budget: its code is verified again in a turn of its own (Episode.run)
        judged = [t for t in turns if t.status not in NOT_A_VERDICT]
        repairs = sum(1 for t in judged if t.stage == "repair")
        optimizes = sum(1 for t in judged if t.stage == "optimize")
        tokens = sum(int((t.usage or {}).get("total_tokens") or 0) for t in turns)
        if not judged:
            stage = "implement"
        elif best_i is None:
            stage = "repair" if repairs < self.cfg.max_repair else None
        else:
            stage = "optimize" if optimizes < self.cfg.max_optimize else None
        return {"best": best_i, "stage": stage, "tokens": tokens, "repairs": repairs, "optimizes": optimizes}

    def _record(self, turns: list[TurnRecord], turn: TurnRecord) -> None:
        turns.append(turn)
        if self.on_turn is not None:
            self.on_turn(turn)

    # -- prompts -------------------------------------------------------------------------------
    def target(self) -> Target | None:
        """The GPU the verifier judges on (measured once per GPU model, then cached); None on the
        CPU. A machine fact, the same for every turn: the prompts stay a function of the turns."""
        if not self._target_known:
            # duck-typed verifiers (tests, external drivers) may not measure a GPU
            get = getattr(self.verifier, "target", None)
            self._target = get() if get is not None and getattr(self.verifier, "device", None) == "cuda" else None
            self._target_known = True
        return self._target

    def guidance(self, verdict: Verdict, stage: str, code: str | None = None) -> tuple[str, list[str]]:
        """Guidance for the verdict on ``code``: entries for what the code already does are left out."""
        if self.kb is None or self.cfg.guidance_k <= 0:
            return "", []
        matches = self.kb.match(verdict, k=self.cfg.guidance_k, stage=stage, code=code)
        return self.kb.render(matches), [m.entry.id for m in matches]

    def _messages(self, turns: list[TurnRecord], stage: str, state: dict) -> tuple[list[dict], list[str]]:
        first = task_prompt(self.task, self.cfg.backend, self.cfg.policy, shape_variants=self.cfg.shape_variants,
                            target=self.target(), timed=self.cfg.timing.enabled)
        msgs = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": first}]
        # the model never sees a turn the verifier failed on (infra_error): it is no feedback on its code
        best = turns[state["best"]] if state.get("best") is not None else None
        turns = [t for t in turns if t.status not in NOT_A_VERDICT]
        if not turns:
            return msgs, []
        k = max(1, self.cfg.context_turns)
        older, recent = turns[:-k], turns[-k:]
        if older:
            # bounded context: older turns shrink to one line each
            lines = [f"- turn {t.idx} ({t.stage}): {one_line(t.verdict)}" for t in older]
            msgs.append({"role": "user", "content": "Summary of earlier attempts:\n" + "\n".join(lines)})
            msgs.append({"role": "assistant", "content": "Understood; I will not repeat those mistakes."})
        guidance_ids: list[str] = []
        for j, t in enumerate(recent):
            msgs.append({"role": "assistant", "content": t.reply if t.code is None else f"```python\n{t.code.rstrip()}\n```"})
            if j < len(recent) - 1:
                msgs.append({"role": "user", "content": t.feedback})
        last = turns[-1]
        guidance, guidance_ids = self.guidance(last.verdict, stage, last.code)
        if stage == "repair":
            content = repair_prompt(last.feedback, guidance)
        else:
            best_in_context = any(t.idx == best.idx for t in recent)
            content = optimize_prompt(last.feedback, guidance, None if best_in_context and last.idx == best.idx else best.code,
                                      best.verdict.timing, last_failed=last.idx != best.idx)
        msgs.append({"role": "user", "content": content})
        return msgs, guidance_ids

    def prompt(self, turns: list[TurnRecord]) -> tuple[str | None, list[dict], list[str]]:
        """(stage, messages, guidance ids): what the loop shows next after ``turns``;
        stage None (and no messages) when the budgets are spent."""
        state = self.state(turns)
        if state["stage"] is None:
            return None, [], []
        messages, gids = self._messages(turns, state["stage"], state)
        return state["stage"], messages, gids

    def request(self, code: str) -> VerifyRequest:
        return VerifyRequest(candidate=code, task=self.task, backend=self.cfg.backend, policy=self.cfg.policy,
                             trials=self.cfg.trials, timing=self.cfg.timing,
                             baselines=self.cfg.given_baselines(self.task.key), shape_variants=self.cfg.shape_variants)

    def no_code(self, problem: str) -> Verdict:
        return no_code_verdict(self.task.key, problem, backend=self.cfg.backend, policy=self.cfg.policy,
                               device=self.verifier.device)

    def record(self, turns: list[TurnRecord], stage: str, messages: list[dict], guidance_ids: list[str], reply: str,
               code: str | None, verdict: Verdict, *, usage: dict | None = None, latency_s: float = 0.0,
               verify_s: float = 0.0, meta: dict | None = None, reasoning: str | None = None) -> TurnRecord:
        """The turn after ``turns``: its feedback rendered from the verdict, plus profiler
        lines when the kernel is correct and the next prompt asks to optimize it."""
        turn = TurnRecord(
            episode_id=self.episode_id, idx=len(turns), stage=stage, messages=messages, reply=reply, code=code,
            verdict=verdict, feedback=render_feedback(verdict, code), guidance_ids=guidance_ids,
            usage=usage or {}, latency_s=latency_s, verify_s=verify_s, created_at=time.time(), meta=dict(meta or {}),
            reasoning=reasoning,
        )
        if (self.cfg.profile and code is not None and turn.verdict.correct
                and self.verifier.device == "cuda" and self.state([*turns, turn])["stage"] == "optimize"):
            from .profiler import Profile, machine_allows, profile_candidate

            t0 = time.perf_counter()
            # the machine's operator can veto profiling (KMOSAIC_PROFILE=0) whatever the episode asked:
            # a machine where ncu cannot run should not pay for a failing run on every turn
            prof = profile_candidate(self.task, code) if machine_allows() else \
                Profile(False, "off on this machine (KMOSAIC_PROFILE=0)")
            turn.verify_s += time.perf_counter() - t0
            turn.feedback = f"{turn.feedback}\n{prof.render()}"
            turn.meta["profile"] = prof.to_dict()
        return turn

    # -- one turn ----------------------------------------------------------------------------------
    def _turn(self, turns: list[TurnRecord], stage: str, messages: list[dict], guidance_ids: list[str]) -> TurnRecord:
        comp = self.llm.complete(messages)
        parsed = extract_candidate(comp.text)
        t0 = time.perf_counter()
        if parsed.code is None:
            verdict = self.no_code(parsed.problem)
        else:
            verdict = self.verifier.verify(self.request(parsed.code))
        verify_s = time.perf_counter() - t0
        return self.record(turns, stage, messages, guidance_ids, comp.text, parsed.code, verdict, usage=comp.usage,
                           latency_s=comp.latency_s, verify_s=verify_s,
                           meta={"finish_reason": comp.finish_reason, "llm": self.llm.name},
                           reasoning=getattr(comp, "reasoning", None))

    def _reverify(self, turns: list[TurnRecord], last: TurnRecord) -> TurnRecord:
        """The same reply and code as ``last`` (whose verdict was infra_error), verified again, as
        the next turn: no LLM call, no tokens; ``meta.reverify_of`` names the turn it repeats."""
        t0 = time.perf_counter()
        verdict = self.verifier.verify(self.request(last.code))
        return self.record(turns, last.stage, last.messages, list(last.guidance_ids or []), last.reply, last.code, verdict,
                           verify_s=time.perf_counter() - t0,
                           meta={**{k: v for k, v in (last.meta or {}).items() if k in ("finish_reason", "llm")},
                                 "reverify_of": last.idx},
                           reasoning=last.reasoning)  # the same reply, so the same thinking led to it

    # -- the loop --------------------------------------------------------------------------------------
    def run(self, resume: list[TurnRecord] | None = None) -> EpisodeResult:
        turns = list(resume or [])
        t0 = time.monotonic()
        prior_wall = sum((t.latency_s or 0) + (t.verify_s or 0) for t in turns)
        stopped, error = "optimized", None
        reverified = 0
        while True:
            last = turns[-1] if turns else None
            if last is not None and last.status in NOT_A_VERDICT and last.code is not None:
                # the verifier failed on this code, not the code: verify it again (at most
                # infra_reverify times in this run), never hand it to the model as an error
                if reverified >= self.cfg.infra_reverify:
                    stopped = "infra_error"
                    error = f"the verifier failed on turn {last.idx} (infra_error): {last.verdict.error.message if last.verdict.error else ''}"
                    break
                reverified += 1
                try:
                    turn = self._reverify(turns, last)
                except TaskError as e:
                    stopped, error = "task_error", str(e)
                    break
                self._record(turns, turn)
                continue
            state = self.state(turns)
            stage = state["stage"]
            if stage is None:
                stopped = "optimized" if state["best"] is not None else "repair_budget"
                break
            if self.cfg.max_tokens is not None and state["tokens"] >= self.cfg.max_tokens:
                stopped = "token_budget"
                break
            if self.cfg.max_wall_s is not None and prior_wall + time.monotonic() - t0 >= self.cfg.max_wall_s:
                stopped = "wall_budget"
                break
            messages, gids = self._messages(turns, stage, state)
            try:
                turn = self._turn(turns, stage, messages, gids)
            except LLMError as e:
                stopped, error = "llm_error", str(e)
                break
            except TaskError as e:
                stopped, error = "task_error", str(e)
                break
            self._record(turns, turn)
        state = self.state(turns)
        b = state["best"]
        return EpisodeResult(
            turns=turns, best_turn=b, best_code=turns[b].code if b is not None else None,
            best_verdict=turns[b].verdict if b is not None else None, correct=b is not None,
            stopped=stopped, error=error, wall_s=prior_wall + time.monotonic() - t0,
        )


def one_line(v: Verdict) -> str:
    """The verdict in one line, for summaries of older turns and progress lines."""
    if v.status == Status.CORRECT:
        ms = number(v.timing.candidate_ms) if v.timing is not None else None
        return f"correct, {ms:.4f} ms" if ms is not None else "correct"
    if v.status == Status.REJECTED:
        return "rejected: " + ", ".join(r.rule or "?" for r in v.rejections)
    msg = ((v.error.message if v.error else "") or "").splitlines()
    return f"{v.status}: {msg[0][:160]}" if msg else str(v.status)
