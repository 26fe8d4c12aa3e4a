"""Live models through langchain-openai: OpenAI or any OpenAI-compatible server (Ollama, vLLM, ...).

One live turn is: check the limits and reserve the request's worst-case cost in the ledger
(committed), write the request to the transcript, send it through ``ChatOpenAI`` (strict tools,
one tool call per turn, an output-token cap), settle the ledger with the real usage, write the
response. Transport faults are retried by the openai client itself (``max_retries``, exponential
backoff, ``Retry-After`` honoured); what is left after the retries becomes a ``LiveRequestError``
with a message that says what to change. Nothing here runs at import time.

Every HTTP response from the model server is bounded before it is parsed (``BoundedTransport``, the
openai client's transport): one that declares or streams more than ``MAX_RESPONSE_BYTES`` is
refused, once, without retries, and the request stays counted at its worst case (the server did
the work). The bound is on the bytes the answer decodes to: a compressed answer (gzip, deflate) is
decompressed here, at most one byte past the bound, so a gzip bomb (a few kB on the wire, gigabytes
inflated) is refused before it is inflated; an encoding we do not decode is refused.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable

from astra_memory.context import Context
from astra_memory.costs.ledger import BudgetExceededError, CostLedger
from astra_memory.costs.prices import Price, check_limit, input_token_bound, price_for
from astra_memory.crash import crash_point
from astra_memory.errors import AstraError, ConfigurationError
from astra_memory.models.transcript import Transcript, redact_secrets, wire_messages
from astra_memory.models.untrusted import bound_reply
from astra_memory.models.usage import reported_tokens
from astra_memory.models.wire_settings import (
    chained,
    chat_openai_settings,
    check_wire_settings,
    unknown_previous_response,
)
from astra_memory.settings import KEY_ENV, openai_api_key
from astra_memory.tools.registry import openai_tool_specs

BASE_URL_ENV = "OPENAI_BASE_URL"
PROBE_TIMEOUT_S = 10.0
MAX_RESPONSE_BYTES = 8 * 1024 * 1024  # far above any answer capped at max_output_tokens
RESPONSE_TOO_LARGE = "response_too_large"

__all__ = ["BudgetExceededError", "LiveRequestError", "LiveReply", "live_chat_model", "live_turn", "preflight",
           "probe_api_key", "is_live"]


class LiveRequestError(AstraError):
    """A live request failed after the client's retries (rejected key, rate limit, server down, ...)."""

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


DECODED = ("gzip", "deflate")  # the content encodings BoundedTransport decodes itself, within its bound


def _decoder(encoding: str) -> Any:
    """A zlib decompressor for a gzip or deflate body (None: not encoded)."""
    import zlib

    if encoding == "gzip":
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj()
    return None


def _bounded_transport_class() -> type:
    import zlib

    import httpx

    class BoundedTransport(httpx.BaseTransport):
        """An ``httpx.HTTPTransport`` that reads each response (at most ``limit`` bytes) before the
        openai client sees it. A bigger one becomes a 400 ``response_too_large`` error response with
        ``x-should-retry: false``: the client raises it at once instead of retrying (it retries any
        exception raised here as a connection error, and the server would do the work again)."""

        def __init__(self, limit: int = MAX_RESPONSE_BYTES) -> None:
            self.limit = limit
            self._inner = httpx.HTTPTransport()

        def _refused(self, request: httpx.Request, size: str, *, what: str = "") -> httpx.Response:
            what = what or f"was larger than {self.limit} bytes ({size})"
            message = f"the model server's response {what} and was refused before it was parsed"
            return httpx.Response(400, headers={"x-should-retry": "false"}, request=request, json={
                "error": {"message": message, "type": "invalid_response", "code": RESPONSE_TOO_LARGE}})

        def handle_request(self, request: httpx.Request) -> httpx.Response:
            request.headers["accept-encoding"] = ", ".join(DECODED)  # only what _decoder decodes
            response = self._inner.handle_request(request)
            try:
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > self.limit:
                    return self._refused(request, f"Content-Length {declared}")
                encoding = response.headers.get("content-encoding", "").strip().lower()
                if encoding not in ("", "identity", *DECODED):
                    return self._refused(request, "", what=f"has Content-Encoding {encoding[:40]!r}, not decoded here")
                decoder = _decoder(encoding)
                body = bytearray()
                for chunk in response.stream:
                    # At most one byte past the bound is ever inflated (max_length), whatever the ratio.
                    try:
                        body += decoder.decompress(chunk, self.limit + 1 - len(body)) if decoder else chunk
                    except zlib.error:
                        return self._refused(request, "", what=f"is {encoding} that does not decompress")
                    if len(body) > self.limit:
                        return self._refused(request, f"more than {self.limit} decompressed"
                                             if decoder else f"more than {self.limit} received")
            finally:
                response.close()
            dropped = ("transfer-encoding", "content-encoding", "content-length")  # the body is decoded now
            headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in dropped]
            return httpx.Response(response.status_code, headers=headers, content=bytes(body), request=request,
                                  extensions=response.extensions)

        def close(self) -> None:
            self._inner.close()

    return BoundedTransport


def new_bounded_client() -> Any:
    """An ``httpx.Client`` whose every response is bounded (``BoundedTransport``)."""
    import httpx

    return httpx.Client(transport=_bounded_transport_class()())


bounded_http_client = cache(new_bounded_client)  # one for every live request of the process, never closed


def is_live(name: str | None) -> bool:
    return bool(name) and name != "scripted"


def parse_model_name(name: str) -> str:
    provider, _, model = name.partition(":")
    if provider != "openai" or not model:
        raise ConfigurationError(
            f"model {name!r} is not understood: use 'scripted' or 'openai:<model>' "
            "(any OpenAI-compatible server via --base-url / OPENAI_BASE_URL)"
        )
    return model


def session_limit(context: Context) -> float:
    return check_limit(context.session_budget_usd, "--budget")


def total_limit(context: Context) -> float:
    return check_limit(context.total_budget_usd, "--total-budget")


def preflight(name: str, context: Context) -> Price:
    """Every local reason a live run cannot start, raised before any work is done.

    Checks, in order: the model name, the cost approval, the API key, a known price, sane limits.
    Returns the price the run will be charged at.
    """
    model = parse_model_name(name)
    if not context.approve_live_cost:
        raise ConfigurationError(
            f"refusing to start a live run on {name}: every model request costs money. Pass "
            "--approve-live-cost (or set ASTRA_APPROVE_LIVE_COST=1) to allow it; --budget USD caps one session, "
            "--total-budget USD all sessions together"
        )
    openai_api_key()
    check_wire_settings(context, model)  # a setting the model does not take: refused before any request
    price = price_for(model, price_in=context.price_in_per_mtok, price_out=context.price_out_per_mtok,
                      service_tier=context.service_tier, base_url=context.base_url)
    session_limit(context)
    total_limit(context)
    if context.max_output_tokens < 1:
        raise ConfigurationError("max_output_tokens must be at least 1")
    return price


def probe_api_key(context: Context, *, timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """Ask the server for its model list (free) so a rejected key fails before any work starts.

    A server without ``/models`` (404) or one that is briefly unwell (429, 5xx) is let through: the
    run's own requests will retry and report. A rejected key or an unreachable server is an error.
    """
    import openai

    client = openai.OpenAI(api_key=openai_api_key(), base_url=context.base_url, max_retries=0, timeout=timeout_s,
                           http_client=new_bounded_client())  # closed with the client below
    where = server_named(context)
    try:
        client.models.list()
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        raise ConfigurationError(
            f"the model server at {where} rejected the API key (HTTP {exc.status_code}): set a valid "
            f"{KEY_ENV}"
        ) from None
    except openai.APIConnectionError as exc:
        raise ConfigurationError(
            f"cannot reach the model server at {where} ({type(exc).__name__}); check --base-url / {BASE_URL_ENV}"
        ) from None
    except openai.APIStatusError:
        return
    finally:
        client.close()


def server_named(context: Context) -> str:
    """The model server as a message names it: its URL scrubbed (``?key=...``, ``user:password@``)."""
    return redact_secrets(context.base_url) if context.base_url else "api.openai.com"


def live_chat_model(name: str, context: Context) -> Runnable:
    """ChatOpenAI with the strict tool contract bound, one tool call per turn, and an output cap."""
    from langchain_openai import ChatOpenAI

    llm = ChatOpenAI(
        model=parse_model_name(name),
        api_key=openai_api_key(),
        base_url=context.base_url,
        max_retries=context.max_retries,  # the openai client retries timeouts, 429 and 5xx with backoff
        timeout=context.request_timeout_s,
        max_tokens=context.max_output_tokens,  # sent as max_completion_tokens / max_output_tokens
        use_responses_api=bool(context.use_responses_api),  # None would let langchain-openai guess
        http_client=bounded_http_client(),  # every response bounded before it is parsed
        **chat_openai_settings(context, parse_model_name(name)),  # chaining, reasoning effort, verbosity, service tier
    )
    return llm.bind_tools(openai_tool_specs(), strict=True, parallel_tool_calls=False)


@dataclass
class LiveReply:
    message: AIMessage
    request_id: str
    cost_usd: float
    usage: dict


def _transport_error(exc: Exception, context: Context) -> LiveRequestError:
    """Turn what is left after the client's retries into an error that says what to change."""
    import openai

    where = server_named(context)
    status = getattr(exc, "status_code", None)
    if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
        text = f"the model server at {where} rejected the API key (HTTP {status}): set a valid {KEY_ENV}"
    elif isinstance(exc, openai.RateLimitError):
        text = (f"the model server at {where} kept answering HTTP 429 (rate limited / quota) after "
                f"{context.max_retries} retries; wait, raise your rate limit, or retry with a new run")
    elif isinstance(exc, openai.APITimeoutError):
        text = (f"the model request to {where} timed out after {context.request_timeout_s:.0f}s and "
                f"{context.max_retries} retries; the request is counted at its worst case (it may have been billed)")
    elif isinstance(exc, openai.APIConnectionError):
        text = f"cannot reach the model server at {where}; check --base-url / {BASE_URL_ENV}"
    elif getattr(exc, "code", None) == RESPONSE_TOO_LARGE:
        body = getattr(exc, "body", None)
        said = body.get("message") if isinstance(body, dict) else None
        text = f"{said or exc} (from {where}); the request is counted at its worst case (it may have been billed)"
    elif isinstance(exc, openai.NotFoundError):
        text = f"the model server at {where} answered 404 (unknown model or path?): {exc}"
    elif isinstance(exc, openai.InternalServerError):
        text = f"the model server at {where} kept failing (HTTP {status}) after {context.max_retries} retries"
    else:
        text = f"the model request to {where} failed: {type(exc).__name__}: {exc}"
    return LiveRequestError(redact_secrets(text, (openai_api_key(required=False),)), status_code=status)


def live_turn(name: str, context: Context, messages: list[BaseMessage], *, thread_id: str,
              run_dir: str | None) -> LiveReply:
    """One guarded live request. Raises ``BudgetExceededError`` (nothing was sent) or
    ``LiveRequestError`` (sent, failed after retries); either way the ledger is settled."""
    import openai

    price = preflight(name, context)
    ledger: CostLedger | None = context.ledger
    if ledger is None:
        raise ConfigurationError(
            "a live model needs a cost ledger: open the agent with session.open_agent() and run it with "
            "session.start_session()/resume_session(), or pass Context(ledger=...)"
        )
    secrets = (openai_api_key(required=False),)
    transcript = Transcript(run_dir, secrets=secrets)
    request_text = json.dumps({"messages": wire_messages(messages), "tools": openai_tool_specs()})
    input_bound = input_token_bound(request_text, len(messages))
    max_cost = price.cost(input_bound, context.max_output_tokens)
    request_id = f"req-{uuid.uuid4().hex}"
    ledger.reserve(thread_id, request_id, max_cost, model=name, session_limit=session_limit(context),
                   total_limit=total_limit(context), input_bound=input_bound,
                   output_bound=context.max_output_tokens)
    transcript.request(request_id, model=name, wire="responses" if context.use_responses_api else "chat.completions",
                       messages=messages, max_cost_usd=max_cost, input_token_bound=input_bound,
                       max_output_tokens=context.max_output_tokens, chained=chained(context))
    try:
        reply = live_chat_model(name, context).invoke(messages)
    except openai.APIError as exc:
        if chained(context) and unknown_previous_response(exc):
            # The server forgot the chain (expired, restarted, another server): not billed; send the
            # full history once without previous_response_id, which starts a new chain.
            ledger.settle(request_id, 0, 0, 0.0, outcome="failed", note="previous_response_id unknown to the server")
            transcript.error(request_id, error="previous_response_id unknown: resent unchained", status_code=400,
                             kept_usd=0.0)
            return live_turn(name, replace(context, chain_responses=False), messages, thread_id=thread_id,
                             run_dir=run_dir)
        # No billable answer, except a timeout or an answer too large to read: the server may have
        # done the work, so it stays counted.
        too_large = getattr(exc, "code", None) == RESPONSE_TOO_LARGE
        kept = max_cost if too_large or isinstance(exc, openai.APITimeoutError) else 0.0
        error = _transport_error(exc, context)
        ledger.settle(request_id, 0, 0, kept, outcome="failed", note=str(error)[:500])
        transcript.error(request_id, error=str(error), status_code=error.status_code, kept_usd=kept)
        raise error from None
    except Exception as exc:  # an answer the client could not read: it may have been billed in full
        error = LiveRequestError(redact_secrets(f"the model server's answer could not be used: "
                                                f"{type(exc).__name__}: {exc}", secrets))
        ledger.settle(request_id, 0, 0, max_cost, outcome="failed", note=str(error)[:500])
        transcript.error(request_id, error=str(error), status_code=None, kept_usd=max_cost)
        raise error from None
    crash_point("model:request")  # reserved and sent, not settled: a kill here must leave it counted
    usage = dict(getattr(reply, "usage_metadata", None) or {})
    reported = reported_tokens(usage)  # a number from outside: validated (models/usage.py)
    if isinstance(reported, str):
        cost, note = max_cost, reported
        tokens_in, tokens_out = input_bound, context.max_output_tokens
    else:
        tokens_in, tokens_out = reported
        cost, note = price.cost(tokens_in, tokens_out), None
    ledger.settle(request_id, tokens_in, tokens_out, cost, note=note)
    reply = bound_reply(reply, context.max_tool_calls_per_reply)  # before the transcript holds any of it
    transcript.response(request_id, reply, cost_usd=cost, usage=usage)
    return LiveReply(message=reply, request_id=request_id, cost_usd=cost, usage=usage)
