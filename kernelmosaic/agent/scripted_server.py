"""A local OpenAI-compatible HTTP server that serves scripted replies.

For tests and dry runs of the whole pipeline without a model: real HTTP on 127.0.0.1,
spoken to by the real ``openai`` client. Replies are chosen per task (read from the task
prompt), in order or by a function of the conversation, so concurrent episodes each get
their own script. It can answer 429 first, to exercise client retries.

    with ScriptedServer({"L1/19_ReLU": [broken, fixed]}) as srv:
        kmosaic generate ... --base-url srv.base_url
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_TASK = re.compile(r"Write a faster replacement for this PyTorch reference \(([^)]+)\)")


class ScriptedServer:
    def __init__(self, scripts: dict, *, fail_first: int = 0, delay_s: float = 0.0, model: str = "scripted-coder",
                 host: str = "127.0.0.1", port: int = 0):
        self.scripts = scripts
        self.fail_first = fail_first
        self.delay_s = delay_s
        self.model = model
        self.requests: list[dict] = []
        self.served: dict[str, int] = {}
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # keep test output clean
                pass

            def _send(self, code: int, body: dict, headers: dict | None = None):
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    return self._send(200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})
                self._send(404, {"error": {"message": "not found"}})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "not found"}})
                with server._lock:
                    server.requests.append(body)
                    if server.fail_first > 0:
                        server.fail_first -= 1
                        return self._send(429, {"error": {"message": "rate limited", "type": "rate_limit"}}, {"Retry-After": "0"})
                    first_user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "")
                    m = _TASK.search(first_user)
                    key = m.group(1) if m else "?"
                    i = server.served.get(key, 0)
                    server.served[key] = i + 1
                    script = server.scripts.get(key) or server.scripts.get("*") or []
                    if callable(script):  # a reply chosen from the conversation itself survives restarts
                        text = script(body.get("messages", []))
                    else:
                        text = script[i] if i < len(script) else script[-1] if script else "no script for this task"
                if server.delay_s:
                    time.sleep(server.delay_s)
                message = {"role": "assistant", "content": text}
                if isinstance(text, dict):  # {"content": ..., "reasoning_content": ...}: a reasoning parser's reply
                    message = {"role": "assistant", **text}
                    text = text.get("content") or ""
                prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
                completion_tokens = len(text.split())
                self._send(200, {
                    "id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", server.model),
                    "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                              "total_tokens": prompt_tokens + completion_tokens},
                })

        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.base_url = f"http://{host}:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
