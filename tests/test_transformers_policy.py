"""The in-process transformers policy on a tiny random-init Qwen3 model built from a config.

No weights are downloaded: the model is random and the tokenizer is trained here on a few
lines of text. The replies are gibberish, so the episode records no-code turns; what this
proves is the real loading, chat templating, batched generation and LoRA-adapter path.
"""

import pytest

transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

from conftest import DATA  # noqa: E402
from kernelmosaic.agent import Episode, EpisodeConfig, SamplingConfig, TransformersLLM  # noqa: E402
from kernelmosaic.task import load_task  # noqa: E402
from kernelmosaic.verify import TimingConfig  # noqa: E402

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import AutoModelForCausalLM, PreTrainedTokenizerFast, Qwen3Config

    d = tmp_path_factory.mktemp("tiny-qwen3")
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    corpus = ["class ModelNew(nn.Module): def forward(self, x): return torch.relu(x)",
              "__global__ void relu(const float* x, float* y, long n) { y[i] = fmaxf(x[i], 0.f); }"] * 20
    tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>", "<|im_start|>", "<|im_end|>", "<|endoftext|>"]))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(d)
    cfg = Qwen3Config(vocab_size=len(fast), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, head_dim=8, max_position_embeddings=8192,
                      eos_token_id=fast.eos_token_id, pad_token_id=fast.pad_token_id)
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(cfg).save_pretrained(d)
    return d


def test_transformers_policy_generates_in_batches(tiny_model):
    pol = TransformersLLM(str(tiny_model), sampling=SamplingConfig(temperature=0.0, max_tokens=12), device="cpu", batch_size=2)
    msgs = [[{"role": "user", "content": "write relu"}], [{"role": "user", "content": "a much longer prompt about a softmax kernel"}], [{"role": "user", "content": "x"}]]
    outs = pol.complete_batch(msgs)
    assert len(outs) == 3
    for o in outs:
        assert isinstance(o.text, str)
        assert 0 < o.usage["completion_tokens"] <= 12 and o.usage["prompt_tokens"] > 0
    # greedy decoding is deterministic, and batching does not change a row's result
    assert pol.complete(msgs[0]).text == outs[0].text


def test_transformers_policy_with_lora_adapter_drives_an_episode(tiny_model, tmp_path, cpu_verifier):
    peft = pytest.importorskip("peft")
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained(tiny_model)
    lora = peft.get_peft_model(base, peft.LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    lora.save_pretrained(tmp_path / "adapter")
    pol = TransformersLLM(str(tiny_model), adapter=str(tmp_path / "adapter"), sampling=SamplingConfig(temperature=0.7, max_tokens=16), device="cpu")
    assert "+" in pol.name
    cfg = EpisodeConfig(backend="cpp", max_repair=1, max_optimize=0, timing=TimingConfig(enabled=False))
    res = Episode(load_task(DATA / "tasks" / "relu.py"), pol, cpu_verifier, cfg).run()
    assert len(res.turns) == 2 and not res.correct
    assert all(t.verdict.status == "invalid_candidate" for t in res.turns)
    assert res.turns[1].messages[-1]["content"].startswith("Your last candidate did not pass.")


def test_concurrent_callers_share_generate_calls_and_get_their_own_replies(tiny_model):
    """An episode runner's threads each call complete(): requests that queue while the model is
    busy go into the next generate call together (up to batch_size), and each caller gets the
    reply to its own prompt, the same as alone; a failed call raises in every caller it served."""
    import threading
    import time

    pol = TransformersLLM(str(tiny_model), sampling=SamplingConfig(temperature=0.0, max_tokens=8), device="cpu", batch_size=3)
    prompts = [[{"role": "user", "content": "relu " * (i + 1)}] for i in range(7)]
    alone = [pol.complete(m).text for m in prompts]
    real, rows = pol.model.generate, []

    def slow_generate(**kw):
        rows.append(kw["input_ids"].shape[0])
        time.sleep(0.3)  # long enough for the other threads to queue behind this call
        return real(**kw)

    pol.model.generate = slow_generate
    got: dict[int, str] = {}
    threads = [threading.Thread(target=lambda i=i: got.__setitem__(i, pol.complete(prompts[i]).text)) for i in range(7)]
    for t in threads:
        t.start()
        time.sleep(0.02)
    for t in threads:
        t.join(60)
    assert got == dict(enumerate(alone))
    assert sum(rows) == 7 and max(rows) == 3 and len(rows) < 7, rows

    def broken(**kw):
        time.sleep(0.3)
        raise RuntimeError("CUDA out of memory")

    pol.model.generate = broken
    errors: list[str] = []

    def call(i):
        try:
            pol.complete(prompts[i])
        except RuntimeError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == ["CUDA out of memory"] * 3
    pol.model.generate = real
    assert pol.complete(prompts[0]).text == alone[0]  # nothing left queued or locked
