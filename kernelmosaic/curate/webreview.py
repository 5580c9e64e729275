"""``kmosaic tasks review SET --web``: review a task set in the browser.

A small HTTP server (the standard library's ``ThreadingHTTPServer``) on 127.0.0.1 serves one
page and a JSON API. The page lists the tasks with filters (category, dtype, status, a name
search) and shows, for the task in view: its source and metadata, the eager time, the nearest
KernelBench problem (lexical score and, when the behavioural check ran, its verdict and evidence)
and the task's past decisions. Keys: ``a`` accept, ``r`` reject (a note is required), ``e`` edit,
``s`` skip, ``j``/``k`` next/previous, ``n`` focus the note, ``/`` search; in the editor
Ctrl+Enter saves and Esc cancels.

Every decision goes through :func:`kernelmosaic.curate.review.record`, the same append-only,
fsynced ledger (``review.jsonl``) the terminal review writes; an edit is kept only if the new
source still parses as a task, as in the terminal. The server binds to 127.0.0.1 only, and every
POST must carry the page's random token, so another web page open in the same browser cannot
post decisions to it.
"""

from __future__ import annotations

import json
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from ..task import TaskError, parse_task
from .review import HUMAN_STATUS, default_reviewer, edited, ledger, record, statuses
from .taskset import TaskSet

MAX_BODY = 2 << 20  # an edited task source is a few kB


class ReviewApp:
    """The state behind the page: the set, who reviews, the behavioural rows, KernelBench sources."""

    def __init__(self, ts: TaskSet, who: str | None = None, decontam: str | Path | None = None,
                 kernelbench: str | None = None):
        from .pipeline import DECONTAM, read_rows

        self.ts = ts
        self.who = who or default_reviewer()
        self.token = secrets.token_urlsafe(24)
        path = Path(decontam) if decontam else ts.root / DECONTAM
        if decontam and not path.is_file():
            raise TaskError(str(path), "no such file (give the rows `kmosaic tasks decontam SET --out FILE` wrote)")
        self.decontam = read_rows(path)
        self.kb_sources: dict[str, str] = {}
        if kernelbench:
            from ..task import load_kernelbench

            self.kb_sources = {p.key: p.source for p in load_kernelbench(kernelbench, (1, 2, 3))}
        self.lock = threading.Lock()  # one decision at a time: the ledger's lines never interleave

    def _behaviour(self, rec: dict) -> dict | None:
        row = self.decontam.get(rec["name"], {})
        return row.get("behaviour") or rec.get("kb_behaviour")

    def listing(self) -> dict:
        st, ed = statuses(self.ts), edited(self.ts)
        rows = []
        for rec in self.ts.records:
            b = self._behaviour(rec) or {}
            rows.append({"name": rec["name"], "category": rec.get("category") or "-", "dtypes": rec.get("dtypes") or [],
                         "status": st[rec["name"]], "edited": rec["name"] in ed, "eager_ms": rec.get("eager_ms"),
                         "nearest_kb": rec.get("nearest_kb"), "behaviour": b.get("verdict")})
        return {"set": self.ts.name, "who": self.who, "tasks": rows,
                "categories": sorted({r["category"] for r in rows}), "dtypes": sorted({d for r in rows for d in r["dtypes"]}),
                "statuses": sorted({r["status"] for r in rows} | set(HUMAN_STATUS))}

    def task(self, name: str) -> dict:
        rec = self.ts.by_name().get(name)
        if rec is None:
            raise KeyError(name)
        st = statuses(self.ts)
        b = self._behaviour(rec)
        kb_key = (b or {}).get("kb") or (b or {}).get("closest") or rec.get("nearest_kb")
        return {"name": name, "record": rec, "source": self.ts.source(rec), "status": st[name],
                "edited": name in edited(self.ts), "behaviour": b,
                "lexical": {k: self.decontam.get(name, {}).get(k) for k in ("nearest", "score", "op_sim", "src_sim")}
                if name in self.decontam else {"nearest": rec.get("nearest_kb"), "score": rec.get("kb_score")},
                "kb_key": kb_key, "kb_source": self.kb_sources.get(kb_key) if kb_key else None,
                "history": [r for r in ledger(self.ts) if r.get("name") == name]}

    def decide(self, name: str, decision: str, note: str) -> dict:
        if name not in self.ts.by_name():
            raise KeyError(name)
        if decision not in ("accepted", "rejected", "skipped"):
            raise ValueError("decision must be accepted, rejected or skipped")
        note = (note or "").strip()
        if decision == "rejected" and not note:
            raise ValueError("a note is required to reject (say why)")
        with self.lock:
            return record(self.ts, name, decision, note, self.who)

    def edit(self, name: str, source: str, note: str) -> dict:
        rec = self.ts.by_name().get(name)
        if rec is None:
            raise KeyError(name)
        path = self.ts.path(rec)
        if source == path.read_text():
            raise ValueError("no change")
        parse_task(source, str(path))  # TaskError: the file stays as it was
        with self.lock:
            path.write_text(source)
            return record(self.ts, name, "edited", (note or "").strip(), self.who)


def _handler(app: ReviewApp):
    class H(BaseHTTPRequestHandler):
        server_version = "kmosaic-review"

        def log_message(self, fmt, *args):  # quiet: the terminal shows the URL and decisions only
            pass

        def _send(self, code: int, body: bytes, ctype: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, obj) -> None:
            self._send(code, json.dumps(obj).encode(), "application/json")

        def do_GET(self):  # noqa: N802
            u = urlparse(self.path)
            if u.path == "/":
                page = PAGE.replace("__TOKEN__", app.token).replace("__TITLE__", _esc(app.ts.name))
                return self._send(200, page.encode(), "text/html; charset=utf-8")
            if u.path == "/api/tasks":
                return self._json(200, app.listing())
            if u.path == "/api/task":
                name = (parse_qs(u.query).get("name") or [""])[0]
                try:
                    return self._json(200, app.task(name))
                except KeyError:
                    return self._json(404, {"error": f"no task named {name}"})
            self._json(404, {"error": "not found"})

        def do_POST(self):  # noqa: N802
            if self.headers.get("X-Review-Token") != app.token:
                return self._json(HTTPStatus.FORBIDDEN, {"error": "missing or wrong review token (reload the page)"})
            n = int(self.headers.get("Content-Length") or 0)
            if n > MAX_BODY:
                return self._json(413, {"error": "request too large"})
            try:
                body = json.loads(self.rfile.read(n) or b"{}")
                name = str(body.get("name", ""))
                if self.path == "/api/decide":
                    row = app.decide(name, str(body.get("decision", "")), str(body.get("note", "")))
                elif self.path == "/api/edit":
                    row = app.edit(name, str(body.get("source", "")), str(body.get("note", "")))
                else:
                    return self._json(404, {"error": "not found"})
            except json.JSONDecodeError:
                return self._json(400, {"error": "the body must be JSON"})
            except KeyError as e:
                return self._json(404, {"error": f"no task named {e.args[0]}"})
            except TaskError as e:
                return self._json(400, {"error": f"not kept: {e.problem}"})
            except ValueError as e:
                return self._json(400, {"error": str(e)})
            self._json(200, {"saved": row, "status": statuses(app.ts)[name]})

    return H


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ReviewServer:
    """The HTTP server on 127.0.0.1 (``port=0``: any free port), served from a thread."""

    def __init__(self, app: ReviewApp, port: int = 0):
        self.app = app
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(app))
        self.httpd.daemon_threads = True
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> "ReviewServer":
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


PAGE = r"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>review: __TITLE__</title>
<style>
body{margin:0;font:14px system-ui,sans-serif;display:flex;height:100vh;color:#222}
#side{width:360px;border-right:1px solid #ccc;display:flex;flex-direction:column}
#filters{padding:8px;display:grid;grid-template-columns:1fr 1fr;gap:4px;border-bottom:1px solid #ccc}
#filters input{grid-column:1/3}
#list{overflow:auto;flex:1}
.item{padding:4px 8px;cursor:pointer;border-bottom:1px solid #eee;font-size:12px}
.item.sel{background:#dbeafe}.item .st{float:right}
.st.accepted{color:#15803d}.st.rejected{color:#b91c1c}.st.auto{color:#666}
#main{flex:1;overflow:auto;padding:12px}
#meta td{padding:1px 12px 1px 0;vertical-align:top}#meta td:first-child{font-weight:600}
pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
textarea{width:100%;box-sizing:border-box;font:12px monospace}
#msg{min-height:1.2em;font-weight:600}#msg.err{color:#b91c1c}#msg.ok{color:#15803d}
.warn{color:#b45309;font-weight:600}.same{color:#b91c1c;font-weight:700}
kbd{border:1px solid #aaa;border-radius:3px;padding:0 3px;font-size:11px}
</style></head>
<body>
<div id="side">
 <div id="filters">
  <select id="f-category"><option value="">all categories</option></select>
  <select id="f-dtype"><option value="">all dtypes</option></select>
  <select id="f-status"><option value="">all statuses</option><option value="undecided">undecided</option></select>
  <span id="count"></span>
  <input id="f-search" placeholder="search names (/)">
 </div>
 <div id="list"></div>
</div>
<div id="main">
 <div><b id="title"></b> <span id="who"></span></div>
 <p><kbd>a</kbd> accept <kbd>r</kbd> reject <kbd>e</kbd> edit <kbd>s</kbd> skip <kbd>j</kbd>/<kbd>k</kbd> next/previous
  <kbd>n</kbd> note <kbd>/</kbd> search</p>
 <div id="msg"></div>
 <label>note <input id="note" size="80" placeholder="why (required to reject)"></label>
 <button id="b-accept">accept</button><button id="b-reject">reject</button><button id="b-edit">edit</button><button id="b-skip">skip</button>
 <table id="meta"></table>
 <div id="editor" hidden><p>Editing: <kbd>Ctrl</kbd>+<kbd>Enter</kbd> saves, <kbd>Esc</kbd> cancels.
   <button id="b-save">save</button><button id="b-cancel">cancel</button></p>
   <textarea id="src-edit" rows="30" spellcheck="false"></textarea></div>
 <h3>source</h3><pre id="source"></pre>
 <div id="kb"></div>
 <h3>decisions</h3><div id="history"></div>
</div>
<script>
const TOKEN = "__TOKEN__";
let all = [], view = [], cur = null;
const $ = id => document.getElementById(id);
function esc(s){return String(s==null?"-":s).replace(/[&<>"]/g,c=>({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]))}
function msg(text, cls){const m=$("msg"); m.textContent=text; m.className=cls||"";}
async function load(keep){
  const r = await fetch("/api/tasks"); const d = await r.json(); all = d.tasks;
  $("who").textContent = "set " + d.set + ", reviewing as " + d.who;
  for (const [id, vals] of [["f-category", d.categories], ["f-dtype", d.dtypes], ["f-status", d.statuses]]) {
    const s = $(id); const have = new Set([...s.options].map(o => o.value));
    for (const v of vals) if (!have.has(v)) s.add(new Option(v, v));
  }
  filter(keep);
}
function filter(keep){
  const c=$("f-category").value, t=$("f-dtype").value, s=$("f-status").value, q=$("f-search").value.toLowerCase();
  view = all.filter(x => (!c||x.category===c) && (!t||x.dtypes.includes(t)) && (!q||x.name.toLowerCase().includes(q))
    && (!s || (s==="undecided" ? !["accepted","rejected"].includes(x.status) : x.status===s)));
  $("count").textContent = view.length + " of " + all.length;
  const L = $("list"); L.innerHTML = "";
  for (const x of view) {
    const e = document.createElement("div"); e.className = "item" + (cur && x.name===cur ? " sel" : "");
    e.dataset.name = x.name;
    e.innerHTML = esc(x.name) + ' <span class="st ' + esc(x.status) + '">' + esc(x.status) + (x.edited ? " (edited)" : "")
      + (x.behaviour==="same" ? ' <span class="same">KB</span>' : "") + "</span>";
    e.onclick = () => show(x.name); L.appendChild(e);
  }
  if (!keep || !view.some(x => x.name===cur)) { if (view.length) show(view[0].name); else clear(); }
}
function clear(){cur=null; $("title").textContent="no task matches the filters"; $("source").textContent=""; $("meta").innerHTML="";}
async function show(name){
  cur = name; closeEditor();
  for (const e of document.querySelectorAll(".item")) e.classList.toggle("sel", e.dataset.name===name);
  const r = await fetch("/api/task?name=" + encodeURIComponent(name)); const d = await r.json();
  if (cur !== name) return;
  const m = d.record, b = d.behaviour, lx = d.lexical || {};
  $("title").textContent = name;
  const rows = [["status", d.status + (d.edited ? ' <span class="warn">edited: its eager time no longer describes it; re-run the filters</span>' : "")],
    ["category", esc(m.category)], ["generator", esc(m.generator) + " (seed " + esc(m.seed) + ")"],
    ["ops", esc((m.ops||[]).join(" → "))], ["dtypes", esc((m.dtypes||[]).join(", "))],
    ["shapes", esc(JSON.stringify(m.shapes||{}))],
    ["eager", m.eager_ms ? esc(m.eager_ms) + " ms on " + esc(m.gpu || "the GPU") : "not measured"],
    ["FLOPs / bytes", esc(m.measured_flops || m.flops) + " / " + esc(m.measured_bytes || m.bytes)],
    ["nearest KernelBench (lexical)", esc(lx.nearest) + " (score " + esc(lx.score) + ")"],
    ["behaviour", !b ? "not checked (run kmosaic tasks decontam)" :
      (b.verdict==="same" ? '<span class="same">SAME FUNCTION as ' + esc(b.kb) + "</span>" : esc(b.verdict) + (b.kb ? " " + esc(b.kb) : ""))
      + (b.probe ? " on probe " + esc(b.probe) + ", max rel. error " + esc(b.max_rel_err) : "")
      + (b.closest ? " (closest " + esc(b.closest) + ", rel. error " + esc(b.closest_rel_err) + ")" : "")
      + (b.error ? " — " + esc(b.error) : "") + (b.confirm_note ? "<br><small>" + esc(b.confirm_note) + "</small>" : "")]];
  $("meta").innerHTML = rows.map(([k,v]) => "<tr><td>" + k + "</td><td>" + v + "</td></tr>").join("");
  $("source").textContent = d.source;
  $("kb").innerHTML = d.kb_source ? "<h3>" + esc(d.kb_key) + " (KernelBench)</h3><pre>" + esc(d.kb_source) + "</pre>" : "";
  $("history").innerHTML = d.history.length ? d.history.map(h => esc(h.when) + " " + esc(h.who) + ": <b>" + esc(h.decision) + "</b> " + esc(h.note)).join("<br>") : "none yet";
  window._source = d.source;
}
async function post(path, body){
  const r = await fetch(path, {method:"POST", headers:{"Content-Type":"application/json","X-Review-Token":TOKEN}, body:JSON.stringify(body)});
  const d = await r.json(); if (!r.ok) throw new Error(d.error || r.status); return d;
}
async function decide(decision){
  if (!cur) return;
  const note = $("note").value.trim();
  if (decision==="rejected" && !note) { msg("a note is required to reject: say why, then press r again", "err"); $("note").focus(); return; }
  try {
    const d = await post("/api/decide", {name: cur, decision, note});
    const done = cur; $("note").value = "";
    const i = view.findIndex(x => x.name===cur); const next = view[i+1] ? view[i+1].name : cur;
    cur = next; await load(true); await show(next);
    msg("saved: " + done + " " + decision + (note ? " (" + note + ")" : ""), "ok");
  } catch (e) { msg("not saved: " + e.message, "err"); }
}
function openEditor(){ if (!cur) return; $("editor").hidden = false; $("src-edit").value = window._source; $("src-edit").focus(); }
function closeEditor(){ $("editor").hidden = true; }
async function saveEdit(){
  try {
    await post("/api/edit", {name: cur, source: $("src-edit").value, note: $("note").value.trim()});
    // the message comes after the view shows the saved source, so "saved" never sits above the old text
    const name = cur; $("note").value = ""; closeEditor();
    await load(true); await show(name);
    msg("edit saved: " + name + "; accept or reject the edited task", "ok");
  } catch (e) { msg("edit not saved: " + e.message, "err"); }
}
function step(d){ const i = view.findIndex(x => x.name===cur); const j = i + d; if (j >= 0 && j < view.length) show(view[j].name); }
document.addEventListener("keydown", ev => {
  const t = ev.target, typing = t.tagName==="TEXTAREA" || t.tagName==="INPUT" || t.tagName==="SELECT";
  if (!$("editor").hidden && t.id==="src-edit") {
    if (ev.key==="Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); saveEdit(); }
    else if (ev.key==="Escape") { ev.preventDefault(); closeEditor(); msg("edit cancelled"); }
    return;
  }
  if (typing) { if (ev.key==="Escape" || (ev.key==="Enter" && t.id==="note")) { t.blur(); } return; }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k==="a") decide("accepted"); else if (k==="r") decide("rejected"); else if (k==="s") decide("skipped");
  else if (k==="e") { ev.preventDefault(); openEditor(); }
  else if (k==="j") step(1); else if (k==="k") step(-1);
  else if (k==="n") { ev.preventDefault(); $("note").focus(); }
  else if (k==="/") { ev.preventDefault(); $("f-search").focus(); }
});
for (const id of ["f-category","f-dtype","f-status"]) $(id).onchange = () => filter(false);
$("f-search").oninput = () => filter(false);
$("b-accept").onclick = () => decide("accepted"); $("b-reject").onclick = () => decide("rejected");
$("b-skip").onclick = () => decide("skipped"); $("b-edit").onclick = openEditor;
$("b-save").onclick = saveEdit; $("b-cancel").onclick = closeEditor;
load(false);
</script></body></html>
"""
