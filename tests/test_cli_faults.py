"""The CLI as a new user meets it (issue 17): each fault found by trying it has a test here.

Every command runs as a real subprocess; a fault is any traceback, a wrong exit code, a
misleading message, or a file left behind that should not be.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import agent_scripts as S
from conftest import DATA, ROOT, count_turns

from kernelmosaic.agent.scripted_server import ScriptedServer
from kernelmosaic.data import Store

LEGACY = DATA / "legacy" / "main-v1.db"


def kmosaic(*args, env=None, cwd=ROOT, timeout=300):
    e = {**os.environ, "COLUMNS": "80", **(env or {})}
    return subprocess.run([sys.executable, "-m", "kernelmosaic.cli", *args], capture_output=True, text=True, env=e,
                          cwd=cwd, timeout=timeout)


def usage_error(r, *needles):
    text = r.stdout + r.stderr
    assert r.returncode == 2, text
    assert "Traceback" not in text, text
    for n in needles:
        assert n in text, text


def test_the_cli_imports_this_checkout():
    r = subprocess.run([sys.executable, "-c", "import kernelmosaic.cli as c; print(c.__file__)"], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.stdout.strip() == str(ROOT / "kernelmosaic" / "cli" / "__init__.py")


# -- Ctrl-C ------------------------------------------------------------------------------------------------
def test_ctrl_c_stops_generate_commits_the_turn_in_flight_and_cancels_the_queue(tmp_path, cache_dir):
    tdir = tmp_path / "tasks"
    tdir.mkdir()
    for name in ("relu_a", "relu_b", "relu_c"):
        (tdir / f"{name}.py").write_text((DATA / "tasks" / "relu.py").read_text())
    db = tmp_path / "run.db"
    env = {**os.environ, "KMOSAIC_CACHE_DIR": str(cache_dir)}
    # each reply takes 2 s: when Ctrl-C comes, the episode is waiting for its next reply
    with ScriptedServer({"*": S.by_conversation}, delay_s=2.0) as srv:
        cmd = [sys.executable, "-m", "kernelmosaic.cli", "generate", "--tasks", str(tdir), "--store", str(db),
               "--model", "scripted-coder", "--base-url", srv.base_url, "--device", "cpu", "--backend", "cpp",
               "--run-id", "r1", "--concurrency", "1", "--max-repair", "3", "--max-optimize", "0", "--no-timing",
               "--workers", "1"]
        # a session of its own: Ctrl-C in a terminal reaches the whole foreground process group
        p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True, text=True)
        deadline = time.monotonic() + 240
        while count_turns(db) < 1 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.1)
        assert p.poll() is None, p.stdout.read()[-3000:]
        at_signal = count_turns(db)
        os.killpg(p.pid, signal.SIGINT)
        t0 = time.monotonic()
        try:
            output, _ = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            raise AssertionError("generate did not stop after one Ctrl-C")
        stopped_in = time.monotonic() - t0
    assert p.returncode == 130, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert "rerun with --run-id r1" in output
    assert stopped_in < 60
    with Store(db) as s:
        eps = s.episodes("r1")
        with_turns = [e for e in eps if e.n_turns]
        # the turn in flight at Ctrl-C was finished and committed, not dropped
        assert sum(e.n_turns for e in eps) == at_signal + 1
        # the queued episodes never started a turn, and nothing was marked failed or done
        assert len(with_turns) == 1
        assert all(e.status == "running" for e in eps)
        for e in eps:
            assert [t.idx for t in s.turns(e.episode_id)] == list(range(e.n_turns))
        assert s.integrity_check() == "ok"
    # a rerun resumes after the committed turns and finishes every episode
    with ScriptedServer({"*": S.by_conversation}) as srv:
        cmd[cmd.index("--base-url") + 1] = srv.base_url
        r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    with Store(db) as s:
        eps = s.episodes("r1")
        assert len(eps) == 3 and all(e.status == "done" and e.correct for e in eps)
        for e in eps:
            assert [t.verdict.status for t in s.turns(e.episode_id)] == ["compile_error", "incorrect", "correct"]


# -- numbers out of range --------------------------------------------------------------------------------
@pytest.mark.parametrize("args, option", [
    (["verify", "c.py", "--task", "t.py", "--atol", "-1"], "--atol"),
    (["verify", "c.py", "--task", "t.py", "--rtol", "-0.5"], "--rtol"),
    (["verify", "c.py", "--task", "t.py", "--timeout", "-5"], "--timeout"),
    (["verify", "c.py", "--task", "t.py", "--timeout", "0"], "--timeout"),
    (["generate", "--tasks", "t.py", "--store", "s.db", "-m", "m", "--max-tokens", "-5"], "--max-tokens"),
    (["generate", "--tasks", "t.py", "--store", "s.db", "-m", "m", "--max-wall", "-1"], "--max-wall"),
    (["solve", "t.py", "-m", "m", "--request-timeout", "0"], "--request-timeout"),
    (["solve", "t.py", "-m", "m", "--temperature", "-1"], "--temperature"),
    (["export", "--store", "s.db", "--view", "direct", "--out", "o", "--min-speedup", "-3"], "--min-speedup"),
    (["export", "--store", "s.db", "--view", "direct", "--out", "o", "--val-fraction", "1.5"], "--val-fraction"),
])
def test_negative_and_zero_numbers_are_refused(args, option):
    usage_error(kmosaic(*args), option)


def test_lanes_per_gpu_is_refused_on_the_cpu_before_anything_starts(tmp_path):
    # on the CPU the lanes are cores (--workers); the refusal comes before an endpoint is asked for
    relu = str(DATA / "tasks" / "relu.py")
    usage_error(kmosaic("generate", "--tasks", relu, "--store", str(tmp_path / "g.db"), "-m", "m", "--device", "cpu",
                        "--lanes-per-gpu", "2"), "--lanes-per-gpu is for --device cuda")
    (tmp_path / "kb" / "level1").mkdir(parents=True)
    (tmp_path / "kb" / "level1" / "1_ReLU.py").write_text((DATA / "tasks" / "relu.py").read_text())
    usage_error(kmosaic("bench", "--store", str(tmp_path / "b.db"), "-m", "m", "--device", "cpu", "--lanes-per-gpu", "2",
                        "--kernelbench", str(tmp_path / "kb"), "--levels", "1"), "--lanes-per-gpu is for --device cuda")
    db = str(tmp_path / "e.db")
    assert kmosaic("episode", "start", relu, "--store", db, "--device", "cpu", "--dir", str(tmp_path / "w"),
                   "--agent", "a/1").returncode == 0
    for folder in (tmp_path / "w").iterdir():
        (folder / "candidate.py").write_text((DATA / "cpu" / "relu_cc_ok.py").read_text())
    r = kmosaic("episode", "submit", "--store", db, "--all", "--dir", str(tmp_path / "w"), "--device", "cpu",
                "--lanes-per-gpu", "2")
    usage_error(r, "--lanes-per-gpu is for --device cuda")
    usage_error(kmosaic("generate", "--tasks", relu, "--store", str(tmp_path / "z.db"), "-m", "m", "--lanes-per-gpu", "0"),
                "--lanes-per-gpu")
    from kernelmosaic.cli.common import lane_options

    assert lane_options("cuda", 3) == {"lanes_per_gpu": 3} and lane_options("cpu", 1) == {}


def test_lanes_per_gpu_multiplies_the_gpus_that_workers_picks():
    # --workers N picks the first N GPUs and each gets its lanes: a Ray actor passes workers=1 for
    # its one GPU, which once cut four lanes to one. No job runs, so no GPU is needed
    from kernelmosaic.verify import Verifier

    with Verifier(device="cuda", gpus=["0", "1"], workers=1, lanes_per_gpu=3, prewarm=False) as v:
        assert [lane.env["CUDA_VISIBLE_DEVICES"] for lane in v.pool.lanes] == ["0", "0", "0"]
        assert {float(lane.env["KMOSAIC_GPU_SHARE"]) for lane in v.pool.lanes} == {1 / 3}  # each candidate's memory share
    with Verifier(device="cuda", gpus=["0", "1"], lanes_per_gpu=2, prewarm=False) as v:
        assert [lane.env["CUDA_VISIBLE_DEVICES"] for lane in v.pool.lanes] == ["0", "0", "1", "1"]


def test_filter_lanes_per_gpu_is_refused_when_bad_or_on_the_cpu(tmp_path):
    """`kmosaic tasks filter --lanes-per-gpu`: 0 or less is a usage error, and so is more than one on
    the CPU (one judge there), before anything is measured; the benchmark script says the same."""
    r = kmosaic("tasks", "generate", "--out", str(tmp_path / "pool"), "--n", "3", "--scale", "small", "--seed", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    for n in ("0", "-2"):
        usage_error(kmosaic("tasks", "filter", str(tmp_path / "pool"), "--device", "cuda", "--lanes-per-gpu", n),
                    "Invalid value for '--lanes-per-gpu'")
    usage_error(kmosaic("tasks", "filter", str(tmp_path / "pool"), "--device", "cpu", "--lanes-per-gpu", "2"),
                "--lanes-per-gpu is for --device cuda; the CPU filter runs one judge")
    assert not (tmp_path / "pool" / "filter").exists()
    script = [sys.executable, str(ROOT / "benchmarks" / "tasks_gpu_filter.py"), "--out", str(tmp_path / "o"),
              "--pool", str(tmp_path / "pool")]
    for args, needle in ((["--lanes-per-gpu", "0"], "--lanes-per-gpu must be 1 or more"),
                         (["--device", "cpu", "--lanes-per-gpu", "2"], "the CPU filter runs one judge")):
        usage_error(subprocess.run(script + args, capture_output=True, text=True, timeout=120), needle)
    assert not (tmp_path / "o").exists()


def test_zero_step_training_is_a_config_error(tmp_path):
    from kernelmosaic.train.config import ConfigError, load_config

    cfg = ROOT / "configs" / "train" / "tiny-qwen-cpu.yaml"
    for bad in ({"sft.max_steps": 0}, {"sft.num_train_epochs": 0, "sft.max_steps": -1}, {"sft.max_steps": -3}):
        with pytest.raises(ConfigError, match="train"):
            load_config(cfg, bad)
    r = kmosaic("train", str(cfg), "--set", "sft.max_steps=0")
    usage_error(r, "max_steps")


# -- existing files, directories, empty stores -------------------------------------------------------------
@pytest.fixture
def legacy_store(tmp_path):
    db = tmp_path / "run.db"
    db.write_bytes(LEGACY.read_bytes())
    return db


def test_out_naming_an_existing_file_is_a_usage_error(tmp_path, legacy_store):
    f = tmp_path / "taken"
    f.write_text("keep me")
    usage_error(kmosaic("export", "--store", str(legacy_store), "--view", "direct", "--out", str(f)), "existing file")
    usage_error(kmosaic("report", str(legacy_store), "--out", str(f)), "existing file")
    assert f.read_text() == "keep me"


def test_a_directory_is_not_called_a_missing_file(tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    for args in (["export", "--store", str(d), "--view", "direct", "--out", str(tmp_path / "o")],
                 ["report", str(d), "--out", str(tmp_path / "rep")],
                 ["guidance", "mine", "--store", str(d)],
                 ["generate", "--tasks", str(DATA / "tasks" / "relu.py"), "--store", str(d), "-m", "m",
                  "--base-url", "http://127.0.0.1:9/v1"],
                 ["verify", str(d), "--task", str(DATA / "tasks" / "relu.py"), "--device", "cpu"]):
        r = kmosaic(*args)
        usage_error(r, "is a directory")
        assert "no such" not in (r.stdout + r.stderr)


def test_a_zero_byte_store_is_refused_and_left_as_it_was(tmp_path):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    usage_error(kmosaic("export", "--store", str(empty), "--view", "direct", "--out", str(tmp_path / "o")), "empty file")
    usage_error(kmosaic("report", str(empty), "--out", str(tmp_path / "rep")), "empty file")
    assert empty.stat().st_size == 0
    assert not (tmp_path / "o").exists() and not (tmp_path / "rep").exists()


def test_a_failed_report_leaves_no_folder(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    out = tmp_path / "rep"
    usage_error(kmosaic("report", str(junk), "--out", str(out)), "not a store")
    assert not out.exists()
    # a store with no runs fails in the library, after the checks: still no folder
    empty_store = tmp_path / "norun.db"
    Store(empty_store).close()
    usage_error(kmosaic("report", str(empty_store), "--out", str(out)), "no runs")
    assert not out.exists()


def test_select_without_matplotlib_is_an_install_hint_and_leaves_no_half_set(tmp_path):
    src = DATA / "tasks"
    pool = tmp_path / "pool"
    r = kmosaic("tasks", "generate", "--out", str(pool), "--n", "3", "--seed", "1")
    if r.returncode != 0:
        pytest.skip("tasks generate is not available here: " + (r.stdout + r.stderr)[-300:])
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "matplotlib.py").write_text("raise ImportError('No module named matplotlib', name='matplotlib')\n")
    env = {"PYTHONPATH": f"{shim}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = tmp_path / "set"
    r = kmosaic("tasks", "select", str(pool), "--out", str(out), "--n", "2", env=env)
    assert "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.returncode == 2 and "kernelmosaic[bench]" in r.stdout + r.stderr, r.stdout + r.stderr
    assert not out.exists()
    assert src.is_dir()


# -- install hints -----------------------------------------------------------------------------------------
def test_install_hints_keep_the_extra_in_brackets(tmp_path, legacy_store):
    shim = tmp_path / "shim"
    shim.mkdir()
    for mod in ("pyarrow", "matplotlib"):
        (shim / f"{mod}.py").write_text(f"raise ImportError('No module named {mod}', name='{mod}')\n")
    # KERNELBENCH_DIR emptied: decontamination would drop the store's one task before pyarrow is needed
    env = {"PYTHONPATH": f"{shim}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", "KERNELBENCH_DIR": ""}
    r = kmosaic("export", "--store", str(legacy_store), "--view", "direct", "--out", str(tmp_path / "o"), env=env)
    usage_error(r, "pip install 'kernelmosaic[data]'", "pyarrow")
    r = kmosaic("report", str(legacy_store), "--out", str(tmp_path / "rep"), env=env)
    usage_error(r, "pip install 'kernelmosaic[bench]'", "matplotlib")


def test_train_names_the_module_that_is_missing(tmp_path):
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "yaml.py").write_text("raise ImportError('No module named yaml', name='yaml')\n")
    env = {"PYTHONPATH": f"{shim}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    r = kmosaic("train", str(ROOT / "configs" / "train" / "tiny-qwen-cpu.yaml"), env=env)
    usage_error(r, "'yaml'", "pip install 'kernelmosaic[train]'")
    assert "trl" not in (r.stdout + r.stderr).split("(")[0]


# -- help ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["verify"], ["solve"], ["generate"], ["bench"], ["export"], ["report"]])
def test_help_at_80_columns_shows_every_option_name_whole(command):
    import click
    import typer

    from kernelmosaic.cli import app

    r = kmosaic(*command, "--help")
    assert r.returncode == 0, r.stderr
    assert "…" not in r.stdout
    cmd = typer.main.get_command(app)
    for name in command:
        cmd = cmd.commands[name]
    for p in cmd.params:
        if isinstance(p, click.Option):
            for opt in p.opts + p.secondary_opts:
                assert opt in r.stdout, f"{opt} missing from {command} --help"


def test_help_lists_the_choices():
    r = kmosaic("generate", "--help")
    assert "<cuda|nvrtc|triton|cpp>" in r.stdout and "<strict|kernelbench>" in r.stdout
    assert "<local|ray>" in r.stdout and "<openai|transformers>" in r.stdout
    r = kmosaic("export", "--help")
    assert "<iterative|direct|steps>" in r.stdout
    usage_error(kmosaic("verify", "c.py", "--task", "t.py", "--policy", "lenient"), "lenient")


def test_shell_completion_is_on():
    r = kmosaic("--help")
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout

    def complete(words: str) -> list[str]:
        # what bash asks the installed `kmosaic` script when TAB is pressed after `words`
        env = {**os.environ, "_KMOSAIC_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
        r = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'kmosaic'; "
                            "from kernelmosaic.cli import main; main()"], capture_output=True, text=True, env=env,
                           cwd=ROOT, timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout.split()

    assert complete("kmosaic gen") == ["generate"]
    assert complete("kmosaic verify c.py --policy ") == ["strict", "kernelbench"]
    assert complete("kmosaic export --view ") == ["iterative", "direct", "steps"]


# -- endpoint --------------------------------------------------------------------------------------------
def test_no_endpoint_is_an_error_not_the_vendors_host(tmp_path):
    env = {"OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}
    r = kmosaic("generate", "--tasks", str(DATA / "tasks" / "relu.py"), "--store", str(tmp_path / "s.db"), "-m", "m",
                "--device", "cpu", env=env)
    usage_error(r, "no endpoint given", "--base-url")
    assert not (tmp_path / "s.db").exists()
    from kernelmosaic.agent import OpenAILLM

    saved = {k: os.environ.pop(k, None) for k in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
    try:
        with pytest.raises(ValueError, match="no endpoint given"):
            OpenAILLM("m")
    finally:
        os.environ.update({k: v for k, v in saved.items() if v is not None})


# -- train ----------------------------------------------------------------------------------------------------
def test_train_output_dir_is_relative_to_the_working_directory(tmp_path, monkeypatch):
    from kernelmosaic.train.config import load_config

    monkeypatch.chdir(tmp_path)
    cfg = load_config(ROOT / "configs" / "train" / "tiny-qwen-cpu.yaml")
    assert Path(cfg.output_dir).is_relative_to(tmp_path)
    assert not Path(cfg.output_dir).is_relative_to(ROOT)


def test_train_config_errors_come_before_the_heavy_imports(tmp_path):
    cfg = str(ROOT / "configs" / "train" / "tiny-qwen-cpu.yaml")
    t0 = time.monotonic()
    r = kmosaic("train", cfg, "--set", "sft.learning_rat=1e-4", cwd=tmp_path)
    usage_error(r, "learning_rat")
    r2 = kmosaic("train", cfg, "--resume-from", str(tmp_path / "no-such-checkpoint"), cwd=tmp_path)
    usage_error(r2, "no-such-checkpoint")
    # each is a subprocess that imports the package; the trl/torch imports alone took 30 s
    assert time.monotonic() - t0 < 25
    assert not (tmp_path / "runs").exists()


# -- verify --------------------------------------------------------------------------------------------------
def test_verify_says_which_phase_it_is_in(cache_dir):
    r = kmosaic("verify", str(DATA / "cpu" / "relu_cc_ok.py") if (DATA / "cpu" / "relu_cc_ok.py").exists()
                else str(next((DATA / "cpu").glob("relu*ok*.py"))), "--task", str(DATA / "tasks" / "relu.py"),
                "--device", "cpu", "--no-timing", "--json", env={"KMOSAIC_CACHE_DIR": str(cache_dir)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "verify: starting the verifier" in r.stderr and "verify: verifying" in r.stderr
    assert json.loads(r.stdout)["status"] == "correct"  # stdout stays one JSON object


# -- serve-scripted ---------------------------------------------------------------------------------------
def test_serve_scripted_serves_the_replies_to_a_real_client(tmp_path):
    from openai import OpenAI

    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"*": ["first", "second"]}))
    # started as a script's background job is (`cmd &`: SIGINT ignored), and still stopped by SIGINT
    p = subprocess.Popen([sys.executable, "-m", "kernelmosaic.cli", "serve-scripted", str(script), "--port", "0"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        line = p.stdout.readline()
        assert "serving scripted replies at" in line, line + p.stderr.read()
        url = line.split(" at ", 1)[1].split()[0]
        client = OpenAI(base_url=url, api_key="x")
        texts = [client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
                 .choices[0].message.content for _ in range(3)]
        assert texts == ["first", "second", "second"]
    finally:
        os.killpg(p.pid, signal.SIGINT)
        p.wait(timeout=30)
    assert p.returncode == 0 and "Traceback" not in p.stderr.read()
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    usage_error(kmosaic("serve-scripted", str(bad)), "expected an object")


# -- the CPU loop without hand-written code --------------------------------------------------------------------
def test_scale_small_runs_the_loop_on_cpu_sized_tasks(tmp_path, cache_dir):
    from kernelmosaic.cli.loop import SMALL_SIZE, Scale, scaled
    from kernelmosaic.task import load_task

    big = tmp_path / "big_relu.py"
    big.write_text((DATA / "tasks" / "relu.py").read_text().replace("torch.randn(64, 1000)", "torch.randn(4096, 393216)"))
    (small,) = scaled([load_task(big)], Scale.SMALL)
    assert small.key == "big_relu@small" and f"torch.randn({SMALL_SIZE}, {SMALL_SIZE})" in small.source
    assert small.metadata["full_key"] == "big_relu" and scaled([load_task(big)], Scale.FULL)[0].key == "big_relu"

    db = tmp_path / "run.db"
    with ScriptedServer({"*": [S.SLOW]}) as srv:
        r = kmosaic("generate", "--tasks", str(big), "--store", str(db), "-m", "scripted-coder", "--base-url",
                    srv.base_url, "--device", "cpu", "--backend", "cpp", "--scale", "small", "--max-repair", "0",
                    "--max-optimize", "0", "--no-timing", "--workers", "1", "--run-id", "s",
                    env={"KMOSAIC_CACHE_DIR": str(cache_dir)})
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    with Store(db) as s:
        (ep,) = s.episodes("s")
        assert ep.task_key == "big_relu@small" and ep.correct
        assert "393216" not in s.get_task("big_relu@small")["source"]


def test_filter_on_cuda_without_a_gpu_says_so(tmp_path):
    """`kmosaic tasks filter --device cuda` where no NVIDIA GPU is visible: the verifier pool's own
    message, exit 2, nothing measured, and a results file that a rerun on the CPU resumes into.
    (CUDA_VISIBLE_DEVICES="" hides any GPU, so this holds on a GPU machine too.)"""
    r = kmosaic("tasks", "generate", "--out", str(tmp_path / "pool"), "--n", "3", "--scale", "small", "--seed", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    r = kmosaic("tasks", "filter", str(tmp_path / "pool"), "--device", "cuda", env={"CUDA_VISIBLE_DEVICES": ""})
    usage_error(r, "no NVIDIA GPU found", "use --device cpu", "3 tasks not measured")
    assert (tmp_path / "pool" / "filter" / "results.jsonl").read_text() == ""
