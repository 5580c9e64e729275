"""`kmosaic tasks review --web`: the page in a real headless browser (Playwright driving Chromium),
the JSON API over real HTTP, and the command serving it. Decisions land in the same ledger the
terminal review writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kernelmosaic.curate.review import ledger, statuses
from kernelmosaic.curate.taskset import TaskSet
from kernelmosaic.curate.webreview import ReviewApp, ReviewServer

ROOT = Path(__file__).resolve().parents[1]

SRC = """import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.{dtype}


class Model(nn.Module):
    \"\"\"{op} ({dt}).\"\"\"

    def forward(self, x):
        return {expr}


def get_inputs():
    return [torch.randn(64, 128, dtype=dtype)]


def get_init_inputs():
    return []
"""
TASKS = [  # name, category, dtype, expression
    ("single_0_softsign_fp32", "activation", "fp32", "F.softsign(x)"),
    ("single_1_tanh_fp16", "activation", "fp16", "torch.tanh(x)"),
    ("single_2_sum_fp32", "reduction", "fp32", "x.sum(dim=-1)"),
    ("single_3_cumsum_bf16", "scan", "bf16", "torch.cumsum(x, dim=-1)"),
]
TORCH_DT = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}


@pytest.fixture
def task_set(tmp_path):
    ts = TaskSet.create(tmp_path / "set", {"name": "webtest"})
    for name, cat, dt, expr in TASKS:
        ts.add(name, SRC.format(dtype=TORCH_DT[dt], op=name.split("_")[2], dt=dt, expr=expr),
               {"category": cat, "dtypes": [dt], "ops": [name.split("_")[2]], "generator": "single", "seed": 1,
                "eager_ms": 2.5, "gpu": "NVIDIA H200", "nearest_kb": "L1/30_Softsign", "kb_score": 0.31, "status": "auto"})
    (ts.root / "decontam.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        {"name": "single_0_softsign_fp32", "nearest": "L1/30_Softsign", "score": 0.24, "dropped": True,
         "behaviour": {"verdict": "same", "kb": "L1/30_Softsign", "probe": "f(16, 16)", "max_rel_err": 0.0}},
        {"name": "single_1_tanh_fp16", "nearest": "L1/22_Tanh", "score": 0.7, "dropped": False,
         "behaviour": {"verdict": "different", "closest": "L1/30_Softsign", "closest_rel_err": 0.3}}]))
    return TaskSet.open(ts.root)


def _post(url, path, body, token):
    req = urllib.request.Request(url.rstrip("/") + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **({"X-Review-Token": token} if token else {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_api_over_http(task_set):
    app = ReviewApp(task_set, "rita")
    with ReviewServer(app) as srv:
        assert srv.url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(srv.url + "api/tasks", timeout=10) as r:
            listing = json.loads(r.read())
        assert [t["name"] for t in listing["tasks"]] == [t[0] for t in TASKS]
        assert listing["categories"] == ["activation", "reduction", "scan"] and listing["dtypes"] == ["bf16", "fp16", "fp32"]
        with urllib.request.urlopen(srv.url + "api/task?name=single_0_softsign_fp32", timeout=10) as r:
            t = json.loads(r.read())
        assert t["behaviour"]["verdict"] == "same" and t["lexical"]["score"] == 0.24 and "F.softsign" in t["source"]
        name = "single_2_sum_fp32"
        assert _post(srv.url, "/api/decide", {"name": name, "decision": "accepted"}, None)[0] == 403  # no token
        assert _post(srv.url, "/api/decide", {"name": name, "decision": "accepted"}, "wrong")[0] == 403
        code, body = _post(srv.url, "/api/decide", {"name": name, "decision": "rejected", "note": "  "}, app.token)
        assert code == 400 and "note is required" in body["error"]
        assert _post(srv.url, "/api/decide", {"name": "nope", "decision": "accepted"}, app.token)[0] == 404
        before = task_set.path(task_set.by_name()[name]).read_text()
        code, body = _post(srv.url, "/api/edit", {"name": name, "source": "import torch\n"}, app.token)
        assert code == 400 and "not kept" in body["error"] and "get_inputs" in body["error"]
        assert task_set.path(task_set.by_name()[name]).read_text() == before
        assert ledger(task_set) == []  # nothing refused was recorded
        code, body = _post(srv.url, "/api/decide", {"name": name, "decision": "accepted", "note": "ok"}, app.token)
        assert code == 200 and body["status"] == "accepted" and body["saved"]["who"] == "rita"
    assert [(r["name"], r["decision"], r["note"]) for r in ledger(task_set)] == [(name, "accepted", "ok")]


def _browser():
    """Playwright driving a Chromium: Playwright's own build if installed, else the system's
    (Debian's `chromium`). Skips, saying why, when neither can be launched."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
    from kernelmosaic.bench import find_chromium

    pw = sync_api.sync_playwright().start()
    errors = []
    for exe in (None, find_chromium()):
        try:
            return pw, pw.chromium.launch(headless=True, executable_path=exe, args=["--no-sandbox"])
        except Exception as e:  # noqa: BLE001 - the reason goes into the skip message
            errors.append(f"{exe or 'playwright chromium'}: {str(e).splitlines()[0][:200]}")
    pw.stop()
    pytest.skip("no headless browser could be launched (apt-get install chromium): " + "; ".join(errors))


def test_review_page_in_a_real_browser(task_set):
    pw, browser = _browser()
    app = ReviewApp(task_set, "rita")
    try:
        with ReviewServer(app) as srv:
            page = browser.new_page()
            page.goto(srv.url)
            items = page.locator("#list .item")
            items.first.wait_for()
            assert items.count() == 4
            # evidence for the task in view: the behavioural verdict and the lexical neighbour
            page.wait_for_selector("#meta >> text=SAME FUNCTION as L1/30_Softsign")
            assert "2.5 ms on NVIDIA H200" in page.inner_text("#meta")
            assert "F.softsign(x)" in page.inner_text("#source")

            # filters: category, dtype
            page.select_option("#f-category", "activation")
            assert items.count() == 2
            page.select_option("#f-dtype", "fp16")
            assert items.count() == 1 and "single_1_tanh_fp16" in items.first.inner_text()
            page.select_option("#f-category", "")
            page.select_option("#f-dtype", "")
            assert items.count() == 4

            # accept with the keyboard
            items.nth(2).click()
            page.wait_for_selector("#title >> text=single_2_sum_fp32")
            page.locator("body").press("a")
            page.wait_for_selector("#msg.ok >> text=saved: single_2_sum_fp32 accepted")
            # the view moved on to the next task; reject it: first without a note (refused), then with one
            page.wait_for_selector("#title >> text=single_3_cumsum_bf16")
            page.locator("body").press("r")
            page.wait_for_selector("#msg.err >> text=a note is required")
            assert [r["decision"] for r in ledger(task_set)] == ["accepted"]
            page.fill("#note", "a plain cumsum: too easy")
            page.press("#note", "Enter")  # leaves the note field, so the next key is a shortcut
            page.locator("body").press("r")
            page.wait_for_selector("#msg.ok >> text=saved: single_3_cumsum_bf16 rejected (a plain cumsum: too easy)")

            # edit: open the editor with e, change the source, save with Ctrl+Enter
            page.locator("#list .item", has_text="single_1_tanh_fp16").click()
            page.wait_for_selector("#title >> text=single_1_tanh_fp16")
            page.fill("#note", "clamp before tanh")
            page.press("#note", "Enter")
            page.locator("body").press("e")
            ed = page.locator("#src-edit")
            ed.wait_for(state="visible")
            new_src = ed.input_value().replace("torch.tanh(x)", "torch.tanh(x.clamp(-3, 3))")
            ed.fill(new_src)
            ed.press("Control+Enter")
            page.wait_for_selector("#msg.ok >> text=edit saved: single_1_tanh_fp16")
            assert "x.clamp(-3, 3)" in page.inner_text("#source")
            rec = task_set.by_name()["single_1_tanh_fp16"]
            assert task_set.path(rec).read_text() == new_src
            page.wait_for_selector("#meta >> text=edited: its eager time no longer describes it")
            # an edit that breaks the task is refused and the file stays
            page.locator("body").press("e")
            ed.wait_for(state="visible")
            ed.fill("import torch\n")
            ed.press("Control+Enter")
            page.wait_for_selector("#msg.err >> text=edit not saved: not kept")
            assert task_set.path(rec).read_text() == new_src
            ed.press("Escape")

            # the status filter sees the decisions
            page.select_option("#f-status", "rejected")
            assert items.count() == 1 and "single_3_cumsum_bf16" in items.first.inner_text()
            page.select_option("#f-status", "undecided")
            assert items.count() == 2
    finally:
        browser.close()
        pw.stop()
    rows = ledger(task_set)
    assert [(r["name"], r["decision"], r["note"], r["who"]) for r in rows] == [
        ("single_2_sum_fp32", "accepted", "", "rita"),
        ("single_3_cumsum_bf16", "rejected", "a plain cumsum: too easy", "rita"),
        ("single_1_tanh_fp16", "edited", "clamp before tanh", "rita")]
    st = statuses(TaskSet.open(task_set.root))  # what the terminal review and `kmosaic generate --tasks` read
    assert st["single_2_sum_fp32"] == "accepted" and st["single_3_cumsum_bf16"] == "rejected"
    assert st["single_1_tanh_fp16"] == "auto" and st["single_0_softsign_fp32"] == "auto"


def test_review_web_command_serves_until_interrupted(task_set):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), "KMOSAIC_REVIEWER": "cli-user"}
    proc = subprocess.Popen([sys.executable, "-m", "kernelmosaic.cli", "tasks", "review", str(task_set.root), "--web",
                             "--port", "0", "--no-open"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            # as a script's background job starts (`cmd &`: SIGINT ignored); SIGINT still stops it
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        line = proc.stdout.readline()
        assert "Reviewing webtest as cli-user at http://127.0.0.1:" in line, line
        url = line.split(" at ")[1].split()[0]
        with urllib.request.urlopen(url, timeout=10) as r:
            html = r.read().decode()
        assert "<title>review: webtest</title>" in html and 'const TOKEN = "' in html
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "every decision was saved" in rest
    busy = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "tasks", "review", str(task_set.root), "--web",
                           "--decontam", str(task_set.root / "missing.jsonl"), "--no-open"], capture_output=True, text=True, env=env)
    assert busy.returncode == 2 and "no such file" in busy.stderr and "Traceback" not in busy.stderr
