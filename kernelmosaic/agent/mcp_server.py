"""``kmosaic mcp``: the external-agent protocol (:mod:`.external`) as an MCP server.

Built on the official ``mcp`` SDK (``pip install 'kernelmosaic[agent]'``), over stdio or
streamable HTTP. Each tool is a thin call into :class:`Workbench`; the agent that calls is
the MCP client named in its ``clientInfo``, and its episodes are recorded with the policy
``external:<name>/<version>``.

Each tool answers twice: as text (what a model reads: for ``submit``, the loop's next
prompt, with the feedback and the guidance in it) and as structured content (the same
result as JSON, the verdict included).
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from .external import ExternalError, Workbench, policy_name, render_status, render_submit

INSTRUCTIONS = """KernelMosaic: write fast, correct kernels that replace PyTorch reference models, judged by a \
verifier. Protocol: list_tasks / read_task to pick a task; start_episode(task) returns the rules and the task \
prompt; submit(episode_id, candidate) with the complete Python file defining class ModelNew returns the verdict, \
the feedback, guidance and the next prompt (repair until correct, then optimize) until the turn budgets are spent; \
get_best returns the best correct kernel; finish_episode ends the episode. Episodes are kept in a store and can be \
resumed after a restart (list_episodes, episode_status)."""


def _client(ctx: Context | None) -> str:
    """``external:<name>/<version>`` from the client's initialize request."""
    try:
        info = ctx.session.client_params.client_info  # type: ignore[union-attr]
        return policy_name(info.name, info.version)
    except AttributeError:
        return policy_name(None)


def _result(text: str, data: dict) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=_jsonable(data))


def _jsonable(d: Any) -> Any:
    from .._json import finite

    return json.loads(json.dumps(finite(d), default=str))


def _call(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except ExternalError as e:
        raise ToolError(str(e)) from None


def build_server(wb: Workbench, *, name: str = "kernelmosaic") -> MCPServer:
    from .. import __version__

    mcp = MCPServer(name, version=__version__, instructions=INSTRUCTIONS)

    @mcp.tool(description="Task ids to start episodes on, from the task sets and KernelBench this server knows. "
                          "Filter by source and by a substring query (category, op, dtype); paged.")
    def list_tasks(source: str | None = None, query: str | None = None, offset: int = 0,
                   limit: int = 50) -> CallToolResult:
        r = _call(wb.list_tasks, source, query, offset, limit)
        lines = [f"{r['total']} tasks" + (f" (showing {r['offset']}..{r['offset'] + len(r['tasks'])})"
                                          if r['total'] > len(r['tasks']) else "")]
        for t in r["tasks"]:
            extra = ", ".join(f"{k} {v}" for k, v in t.items() if k != "id" and v is not None)
            lines.append(f"- {t['id']}" + (f" ({extra})" if extra else ""))
        return _result("\n".join(lines), r)

    @mcp.tool(description="The reference source of one task (SET/NAME, L<level>/<id>, or a task file path).")
    def read_task(task: str) -> CallToolResult:
        r = _call(wb.read_task, task)
        return _result(f"task {r['key']}:\n```python\n{r['source'].rstrip()}\n```", r)

    @mcp.tool(description="Start an episode on a task. Returns its episode_id, the rules and the task prompt. "
                          "Reply by calling submit with the complete Python file.")
    def start_episode(task: str, ctx: Context) -> CallToolResult:
        r = _call(wb.start, task, _client(ctx))
        text = (f"episode_id: {r['episode_id']}\n\n{r['system']}\n\n{r['prompt']}\n\n"
                f"[turn budgets: repair {r['budgets']['max_repair']}, optimize {r['budgets']['max_optimize']}]")
        return _result(text, r)

    @mcp.tool(description="Submit a candidate for the episode's next turn: the complete Python file defining "
                          "class ModelNew (or a reply holding it in a ```python block). Returns the verdict, the "
                          "feedback, guidance and the next prompt.")
    def submit(episode_id: str, candidate: str, ctx: Context) -> CallToolResult:
        r = _call(wb.submit, episode_id, candidate, _client(ctx))
        return _result(render_submit(r), r)

    @mcp.tool(description="The best correct kernel of an episode so far (its code and timing).")
    def get_best(episode_id: str) -> CallToolResult:
        r = _call(wb.best, episode_id)
        if not r["correct"]:
            return _result(f"episode {r['episode_id']}: no correct kernel yet", r)
        t = (r["best"] or {}).get("timing") or {}
        sp = f", {t['speedup_eager']:.2f}x over eager" if t.get("speedup_eager") else ""
        return _result(f"best kernel of {r['episode_id']} (turn {r['best']['turn']}{sp}):\n```python\n"
                       f"{r['code'].rstrip()}\n```", r)

    @mcp.tool(description="Where an episode stands: its turns so far, budgets left, and the next prompt.")
    def episode_status(episode_id: str) -> CallToolResult:
        r = _call(wb.status, episode_id)
        return _result(render_status(r), r)

    @mcp.tool(description="Finish an episode; its best correct kernel is kept.")
    def finish_episode(episode_id: str) -> CallToolResult:
        r = _call(wb.finish, episode_id)
        return _result(render_status(r), r)

    @mcp.tool(description="Episodes driven from outside in this store (resume one with episode_status and submit).")
    def list_episodes(status: str | None = None) -> CallToolResult:
        if status not in (None, "running", "done", "failed"):
            raise ToolError("status is running, done or failed")
        eps = wb.episodes(status)
        lines = [f"{len(eps)} episodes"] + [f"- {e['episode_id']}: {e['status']}, {e['turns']} turns"
                                            + (", correct" if e["correct"] else "") for e in eps]
        return _result("\n".join(lines), {"episodes": eps})

    return mcp


def serve(wb: Workbench, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8765) -> None:
    """Runs until the client disconnects (stdio) or the process is stopped (http)."""
    server = build_server(wb)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)
