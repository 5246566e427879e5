"""A local OpenAI-compatible chat-completions server for tests and benchmarks.

Real HTTP on 127.0.0.1 (stdlib ThreadingHTTPServer, one thread per request,
so concurrent clients really overlap). Replies are scripted per model: a
queue of `Reply`s (text, tool calls, or a fault), then a responder function
that derives the reply from the request (devtools.scripted), so a run of a
thousand calls needs no hand-written script. Every request is recorded with
its arrival and reply times and checked for well-formedness; problems land in
`violations`, which tests assert empty, because a test double that accepts
anything would hide the bugs it exists to catch.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from core.text import count_tokens

CHAT_PATH = "/v1/chat/completions"
ROLES = {"system", "user", "assistant", "tool", "developer"}


@dataclass
class Reply:
    """One scripted answer. status != 200 makes it an error reply."""

    content: str | None = None
    tool_calls: list[tuple[str, Any]] = field(default_factory=list)  # (name, dict or raw str arguments)
    status: int = 200
    error: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None  # sent verbatim instead of a completion (malformed JSON)
    hang_s: float = 0.0  # extra wait before answering (past the client's timeout)
    kind: str = "text"
    usage: bool = True  # False: the completion has no `usage` (some local servers and proxies)


def text(content: str) -> Reply:
    return Reply(content=content, kind="text")


def tool_calls(*calls: tuple[str, Any], content: str | None = None) -> Reply:
    return Reply(content=content, tool_calls=list(calls), kind="tools")


def rate_limited(retry_after: float = 0.05) -> Reply:
    return Reply(status=429, error="Rate limit reached", headers={"Retry-After": f"{retry_after:g}"}, kind="429")


def server_error(status: int = 500) -> Reply:
    return Reply(status=status, error="The server had an error while processing your request", kind=str(status))


def hang(seconds: float) -> Reply:
    return Reply(content="too late", hang_s=seconds, kind="hang")


def malformed_body() -> Reply:
    return Reply(raw_body=b'{"id": "cmpl-broken", "choices": [{"message": {"content": "unterminated', kind="malformed")


def unsupported(param: str) -> Reply:
    return Reply(status=400, error=f"'{param}' is not supported by this server", kind="unsupported")


# What real servers answer to a request form they lack (quoted from the servers, see issue #20).
LLAMA_CPP_PY_FORMAT_ERROR = ("[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
                             "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
                             "'ctx': {'expected': \"'text' or 'json_object'\"}}]")
LLAMA_CPP_TOOLS_ERROR = "tools param requires --jinja flag"


def format_refused(message: str = LLAMA_CPP_PY_FORMAT_ERROR, status: int = 500) -> Reply:
    """llama-cpp-python's answer to a json_schema response_format: an HTTP 500 that names the format."""
    return Reply(status=status, error=message, kind="format_refused")


def tools_refused(message: str = LLAMA_CPP_TOOLS_ERROR, status: int = 500) -> Reply:
    """llama.cpp's server without --jinja, answering a request with `tools`."""
    return Reply(status=status, error=message, kind="tools_refused")


def no_usage(reply: Reply) -> Reply:
    """The same reply without `usage` in the completion."""
    reply.usage = False
    return reply


@dataclass
class Recorded:
    """A request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    model: str
    t_start: float
    t_end: float = 0.0
    status: int = 0
    kind: str = ""


def check_request(body: Any, auth: str | None, api_key: str | None, models: set[str] | None,
                  expected_tools: dict[str, list[dict]]) -> list[str]:
    """Everything a real OpenAI endpoint would reject, as messages (empty when well-formed)."""
    errs: list[str] = []
    if api_key is not None and auth != f"Bearer {api_key}":
        errs.append("missing or wrong Authorization header")
    if not isinstance(body, dict):
        return errs + ["body is not a JSON object"]
    model = body.get("model")
    if not isinstance(model, str) or not model:
        errs.append("no model")
    elif models is not None and model not in models:
        errs.append(f"unknown model {model!r}")
    msgs = body.get("messages")
    if not isinstance(msgs, list) or not msgs:
        return errs + ["messages must be a non-empty list"]
    pending_ids: set[str] = set()
    for i, m in enumerate(msgs):
        if not isinstance(m, dict) or m.get("role") not in ROLES:
            errs.append(f"message {i}: bad role")
            continue
        if m["role"] == "assistant" and m.get("tool_calls"):
            for tc in m["tool_calls"]:
                fn = tc.get("function", {})
                if tc.get("type") != "function" or not tc.get("id") or not isinstance(fn.get("arguments"), str):
                    errs.append(f"message {i}: malformed tool call")
                pending_ids.add(tc.get("id"))
        elif m["role"] == "tool":
            if m.get("tool_call_id") not in pending_ids:
                errs.append(f"message {i}: tool result for unknown tool_call_id")
            if not isinstance(m.get("content"), str):
                errs.append(f"message {i}: tool content must be a string")
        elif not isinstance(m.get("content"), str):
            errs.append(f"message {i}: content must be a string")
    tools = body.get("tools")
    if tools is not None:
        if not isinstance(tools, list) or not tools:
            errs.append("tools must be a non-empty list")
        else:
            for t in tools:
                fn = t.get("function", {}) if isinstance(t, dict) else {}
                params = fn.get("parameters", {})
                if t.get("type") != "function" or not fn.get("name") or params.get("type") != "object":
                    errs.append(f"malformed tool {t!r:.80}")
            want = expected_tools.get(model) if isinstance(model, str) else None
            if want is not None and tools != want:
                errs.append("tools differ from the harness's tool definitions")
    rf = body.get("response_format")
    if rf is not None:
        kind = rf.get("type") if isinstance(rf, dict) else None
        if kind not in ("text", "json_object", "json_schema"):
            errs.append("bad response_format type")
        elif kind == "json_schema":
            js = rf.get("json_schema", {})
            if not js.get("name") or js.get("schema", {}).get("type") != "object":
                errs.append("json_schema needs a name and an object schema")
    if "temperature" in body and not isinstance(body["temperature"], (int, float)):
        errs.append("temperature must be a number")
    return errs


class _Inspection:
    """What tests and benchmarks read back: requests with their timing, and protocol violations."""

    requests: list[Recorded]
    violations: list[str]
    _lock: threading.Lock

    def calls(self, model: str | None = None) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if model is None or r.model == model]

    def max_overlap(self, model: str | None = None) -> int:
        """Most requests in flight at once, from the recorded intervals (not assumed)."""
        points = []
        for r in self.calls(model):
            if r.t_end:  # still in flight (a hang): its end is not known yet
                points += [(r.t_start, 1), (r.t_end, -1)]
        best = cur = 0
        for _, d in sorted(points, key=lambda p: (p[0], p[1])):
            cur += d
            best = max(best, cur)
        return best

    def assert_clean(self) -> None:
        assert not self.violations, f"malformed requests: {self.violations}"


class FakeOpenAI(_Inspection):
    """`with FakeOpenAI(models={"root-m", "sub-m"}) as srv: ... srv.base_url ...`"""

    def __init__(self, *, api_key: str | None = "sk-fake-test-key", models: set[str] | None = None,
                 latency_s: float = 0.0, unsupported_params: set[str] | frozenset = frozenset(),
                 response_formats: set[str] | None = None, tools_supported: bool = True, usage: bool = True):
        self.api_key = api_key
        self.models = models
        self.latency_s = latency_s
        self.unsupported_params = set(unsupported_params)
        # a server like llama-cpp-python: response_format types outside this set get its HTTP 500 (None: all)
        self.response_formats = response_formats
        self.tools_supported = tools_supported  # False: `tools` gets llama.cpp's 500 (no --jinja)
        self.usage = usage  # False: no completion carries `usage`
        self.expected_tools: dict[str, list[dict]] = {}
        self.requests: list[Recorded] = []
        self.violations: list[str] = []
        # gather {model: n}: a reply of that model also waits (beyond latency_s) until n of its requests are in
        # flight, or until none has arrived for gather_settle_s. Tests of concurrency set it to the cap they expect,
        # so "the calls overlap" is what the harness does, not whether a loaded machine sent them within latency_s.
        self.gather: dict[str, int] = {}
        self.gather_settle_s = 2.0
        self._arrived = threading.Condition()
        self._last_arrival = 0.0
        self._queues: dict[str, deque[Reply]] = defaultdict(deque)
        self._responders: dict[str, Callable[[dict], Reply]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- scripting -------------------------------------------------------
    def enqueue(self, model: str, *replies: Reply) -> None:
        with self._lock:
            self._queues[model].extend(replies)

    def replay(self, model: str, *contents: str) -> None:
        """Queue raw reply texts, as a real model wrote them (bare JSON, fences, <tool_call> tags, prose)."""
        self.enqueue(model, *(text(c) for c in contents))

    def respond_with(self, model: str, fn: Callable[[dict], Reply]) -> None:
        """Used once the model's queue is empty."""
        self._responders[model] = fn

    def expect_tools(self, model: str, tools: list[dict]) -> None:
        self.expected_tools[model] = tools

    # --- lifecycle -------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "FakeOpenAI":
        handler = type("Handler", (_Handler,), {"fake": self})
        ThreadingHTTPServer.request_queue_size = 256
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True, name="fakeopenai")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()  # releases hanging replies at once
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- request handling (called on server threads) ----------------------
    def _next_reply(self, body: dict) -> Reply:
        model = body.get("model", "")
        for param in self.unsupported_params:
            if param in body:
                return unsupported(param)
        rf = body.get("response_format")
        if self.response_formats is not None and isinstance(rf, dict) and rf.get("type") not in self.response_formats:
            return format_refused()
        if not self.tools_supported and "tools" in body:
            return tools_refused()
        with self._lock:
            q = self._queues.get(model)
            if q:
                return q.popleft()
        fn = self._responders.get(model)
        if fn is None:
            self.violations.append(f"no scripted reply left for model {model!r}")
            return server_error(500)
        return fn(body)

    def _handle(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict, bytes]:
        rec = Recorded(method, path, headers, None, "", time.monotonic())
        with self._lock:
            self.requests.append(rec)
        if method != "POST" or path != CHAT_PATH:
            self.violations.append(f"{method} {path}: not the chat completions endpoint")
            return self._finish(rec, 404, {}, _error_body("not found"), "404")
        try:
            body = json.loads(raw)
        except ValueError:
            self.violations.append("request body is not JSON")
            return self._finish(rec, 400, {}, _error_body("body is not JSON"), "400")
        rec.body = body
        rec.model = body.get("model", "") if isinstance(body, dict) else ""
        errs = check_request(body, headers.get("authorization"), self.api_key, self.models, self.expected_tools)
        if errs:
            self.violations.extend(errs)
            return self._finish(rec, 400, {}, _error_body("malformed request: " + "; ".join(errs)), "400")
        reply = self._next_reply(body)
        rec.kind = reply.kind  # known now: a hang's record must say so while it is still hanging
        if reply.raw_body is not None:
            status, headers, payload = 200, {"Content-Type": "application/json"}, reply.raw_body
        elif reply.status != 200:
            status, headers, payload = reply.status, reply.headers, _error_body(reply.error)
        else:
            completion = _completion(body, reply)
            if not (reply.usage and self.usage):
                del completion["usage"]
            status, headers, payload = 200, reply.headers, json.dumps(completion).encode()
        # the latency is counted from the request's arrival, so the server's own work (parsing, the scripted
        # answer, a GIL shared by its request threads) is inside it, not added on top: a reply comes
        # latency_s after its request, as the benchmarks state
        if self.gather.get(rec.model):
            self._gather(rec, self.gather[rec.model])
        wait = rec.t_start + self.latency_s + reply.hang_s - time.monotonic()
        if wait > 0:
            self._stop.wait(wait)
        return self._finish(rec, status, headers, payload, reply.kind)

    def _in_flight(self, model: str) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.model == model and not r.t_end)

    def _gather(self, rec: Recorded, n: int) -> None:
        with self._arrived:
            self._last_arrival = time.monotonic()
            self._arrived.notify_all()
            while (self._in_flight(rec.model) < n and not self._stop.is_set()
                   and time.monotonic() - self._last_arrival < self.gather_settle_s):
                self._arrived.wait(0.05)

    def _finish(self, rec: Recorded, status: int, headers: dict, payload: bytes, kind: str):
        rec.t_end, rec.status, rec.kind = time.monotonic(), status, kind
        return status, headers, payload


def _error_body(message: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": "invalid_request_error", "code": None}}).encode()


def _completion(body: dict, reply: Reply) -> dict:
    msg: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        msg["tool_calls"] = [
            {"id": f"call_{uuid.uuid4().hex[:12]}", "type": "function",
             "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
            for name, args in reply.tool_calls
        ]
    prompt = sum(count_tokens(m.get("content") or "") for m in body["messages"])
    prompt += count_tokens(json.dumps(body.get("tools", ""))) if body.get("tools") else 0
    completion = count_tokens(reply.content or "") + sum(count_tokens(str(a)) for _, a in reply.tool_calls)
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:16]}", "object": "chat.completion", "created": int(time.time()),
        "model": body["model"],
        "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects
    # headers and body go out as two writes; with Nagle's algorithm on, the body waits for the client's
    # delayed ACK of the headers (~40 ms on Linux) and every reply comes that much later than latency_s
    disable_nagle_algorithm = True
    fake: FakeOpenAI

    def _serve(self, method: str) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, extra, payload = self.fake._handle(method, self.path, headers, raw)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for k, v in extra.items():
                if k.lower() != "content-type":
                    self.send_header(k, v)
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout): exactly what a hang fault tests

    def do_POST(self) -> None:
        self._serve("POST")

    def do_GET(self) -> None:
        self._serve("GET")

    def log_message(self, *args) -> None:  # quiet: tests read `requests`, not stderr
        pass


# --- the same server in its own process --------------------------------------
def _serve_main(conn, kwargs: dict, responders: dict, expected_tools: dict) -> None:
    srv = FakeOpenAI(**kwargs).start()
    for model, fn in responders.items():
        srv.respond_with(model, fn)
    for model, tools in expected_tools.items():
        srv.expect_tools(model, tools)
    conn.send(srv.base_url)
    conn.recv()  # stop
    srv.stop()
    conn.send(([Recorded(r.method, r.path, {}, None, r.model, r.t_start, r.t_end, r.status, r.kind)
                for r in srv.requests], srv.violations))


class RemoteFakeOpenAI(_Inspection):
    """FakeOpenAI in a child process, so its JSON and scripted answers do not compete with the client for
    the GIL (a real endpoint is another machine). Requests (timings, no bodies) are readable after exit;
    time.monotonic is system-wide on Linux, so the timings compare with the parent's clock."""

    def __init__(self, *, responders: dict[str, Callable[[dict], Reply]],
                 expected_tools: dict[str, list[dict]] | None = None, **kwargs):
        import multiprocessing

        self._ctx = multiprocessing.get_context("spawn")
        self._args = (kwargs, responders, expected_tools or {})
        self.requests, self.violations, self._lock = [], [], threading.Lock()
        self.base_url = ""

    def __enter__(self) -> "RemoteFakeOpenAI":
        self._conn, child = self._ctx.Pipe()
        self._proc = self._ctx.Process(target=_serve_main, args=(child, *self._args), daemon=True)
        self._proc.start()
        self.base_url = self._conn.recv()
        return self

    def __exit__(self, *exc) -> None:
        self._conn.send("stop")
        self.requests, self.violations = self._conn.recv()
        self._proc.join(timeout=10)
