"""ToolRouter against real servers: several at once, name mapping, checks before a call, and every way a call
can fail coming back as an error result the model can read."""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp_servers import ROOT, STARTUP_GUARD, everything, lab, lab_in_process, paged

from shim.config import parse_config
from shim.prompting import assistant_message, render_messages, tool_message, user_message
from shim.routing import ToolRouter, public_names
from shim.types import Image, ToolCall, ToolResult, ToolSpec

pytestmark = pytest.mark.anyio

_SAFE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def make_router(servers: dict[str, Any], **kwargs: Any) -> ToolRouter:
    return ToolRouter(parse_config({"mcpServers": servers}).servers, **kwargs)


@pytest.fixture(scope="module")
async def router() -> AsyncIterator[ToolRouter]:
    """Shared by the tests that leave the servers as they found them. The two lab servers run in this process
    (the logic under test is the router's); server-everything, the paged server and a missing command are real
    processes, for the stdio seam itself."""
    servers = {
        "lab": lab(env={"LAB_SECRET": "hunter2-secret-value"}),
        "twin": lab(),
        "everything": everything(),
        "paged": paged(),
        "broken": {"command": "shim-test-no-such-command"},
    }
    connect = {"lab": lab_in_process(secret="hunter2-secret-value"), "twin": lab_in_process("twin")}
    # Bounded by the router's own start-up timeout, never by a scope around the yield (see SHARED_ROUTER).
    async with make_router(servers, timeout=2.0, startup_timeout=STARTUP_GUARD, connect=connect) as router:
        yield router


def call(tool: str, call_id: str = "call_000000000000000000000001", /, **arguments: Any) -> ToolCall:
    return ToolCall(id=call_id, name=tool, arguments=arguments)


async def run(router: ToolRouter, tool: str, /, **arguments: Any) -> ToolResult:
    with anyio.fail_after(15):
        return await router.call(call(tool, **arguments))


# -- names ---------------------------------------------------------------------------------------------------


def test_keeps_unique_names_and_namespaces_shared_ones() -> None:
    names = public_names([("a", "read"), ("a", "echo"), ("b", "echo"), ("b", "write")])
    assert names == {"read": ("a", "read"), "a__echo": ("a", "echo"), "b__echo": ("b", "echo"), "write": ("b", "write")}


def test_replaces_dots_and_shortens_long_names_with_a_hash() -> None:
    long = "x" * 80
    names = public_names([("s", "files.read"), ("s", long)])
    assert names["files_read"] == ("s", "files.read")
    (short,) = (n for n, (_, tool) in names.items() if tool == long)
    assert len(short) == 64 and _SAFE.match(short)


def test_names_that_only_collide_after_cleaning_both_stay_reachable() -> None:
    names = public_names([("s", "a.b"), ("s", "a_b"), ("t", "s__a_b")])
    assert sorted(names.values()) == [("s", "a.b"), ("s", "a_b"), ("t", "s__a_b")]
    assert all(_SAFE.match(n) for n in names)


@given(st.lists(st.tuples(st.text(max_size=20), st.text(max_size=90)), unique=True, max_size=12))
def test_every_public_name_is_openai_safe_unique_and_maps_back(tools: list[tuple[str, str]]) -> None:
    names = public_names(tools)
    assert all(_SAFE.match(n) for n in names)
    assert sorted(names.values()) == sorted(tools)


# -- listing -------------------------------------------------------------------------------------------------


async def test_lists_the_tools_of_every_working_server_and_reports_the_broken_one(router: ToolRouter) -> None:
    names = {t.name for t in await router.list_tools()}
    assert {"get-tiny-image", "get-structured-content", "page_tool_6", "bad_output", "lab__add", "twin__add"} <= names
    assert all(_SAFE.match(n) for n in names)
    assert "shim-test-no-such-command" in router.failures["broken"]
    assert set(router.failures) == {"broken"}


async def test_two_servers_with_the_same_tool_name_are_both_reachable(router: ToolRouter) -> None:
    names = {t.name for t in router.tools}
    assert {"lab__echo", "twin__echo", "everything__echo"} <= names and "echo" not in names
    assert (await run(router, "lab__echo", message="hi")).render() == "lab echo: hi"
    assert (await run(router, "everything__echo", message="hi")).render() == "Echo: hi"
    assert router.server_of("twin__echo") == "twin"


async def test_a_dotted_tool_name_is_offered_safely_and_the_original_still_works(router: ToolRouter) -> None:
    assert "lab__search_docs" in {t.name for t in router.tools}
    result = await run(router, "lab.search.docs", query="x")
    assert result.render() == "no docs about x"


# -- before the call -----------------------------------------------------------------------------------------


async def test_an_unknown_tool_gets_an_error_listing_the_valid_names(router: ToolRouter) -> None:
    result = await run(router, "get-tiny-imag")
    assert result.is_error and result.call_id == "call_000000000000000000000001"
    text = result.render()
    assert text.startswith("Error: Unknown tool 'get-tiny-imag'. Did you mean 'get-tiny-image'? Available tools: ")
    assert "lab__add" in text and "page_tool_0" in text


async def test_invalid_arguments_get_an_error_saying_what_is_wrong(router: ToolRouter) -> None:
    result = await run(router, "lab__add", a="one")
    assert result.is_error
    assert result.render().splitlines()[:3] == [
        "Error: Invalid arguments for tool 'lab__add':",
        "- at the top level: 'b' is a required property",
        "- at '$.a': 'one' is not of type 'integer'",
    ]
    assert "call the tool again" in result.render()


async def test_a_tool_without_annotations_needs_approval_and_is_refused_without_an_approver(
    router: ToolRouter,
) -> None:
    result = await run(router, "lab__delete_everything")
    assert result.is_error
    assert "needs the user's approval" in result.render()


# -- results -------------------------------------------------------------------------------------------------


async def test_a_tool_error_comes_back_as_an_error_result(router: ToolRouter) -> None:
    result = await run(router, "lab__fail", reason="disk full")
    assert result.is_error
    assert "failed on purpose: disk full" in result.render()


async def test_an_image_result_keeps_its_bytes_through_the_router_into_the_rendered_prompt(router: ToolRouter) -> None:
    # The bytes server-everything sends, read from its own source: what arrives must be exactly these.
    source = (ROOT / "node_modules/@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js").read_text()
    found = re.search(r'MCP_TINY_IMAGE = "([^"]+)"', source)
    assert found is not None
    result = await run(router, "get-tiny-image")
    assert [(b.kind, b.mime_type, b.data) for b in result.content if b.kind == "image"] == [
        ("image", "image/png", found.group(1))
    ]
    call = ToolCall(id=result.call_id, name=result.name, arguments={})
    prompt = render_messages([user_message("Show it."), assistant_message("", [call]), tool_message(result)])
    assert prompt[-1].images == (Image(mime_type="image/png", data=found.group(1)),)
    assert base64.b64decode(found.group(1)).startswith(b"\x89PNG")
    assert "[image: image/png, 3 KB, from tool 'get-tiny-image']" in prompt[-1].content


async def test_structured_content_and_images_reach_the_result(router: ToolRouter) -> None:
    weather = await run(router, "get-structured-content", location="New York")
    assert weather.structured_content == {"temperature": 33, "conditions": "Cloudy", "humidity": 82}
    image = await run(router, "get-tiny-image")
    assert [b.kind for b in image.content] == ["text", "image", "text"]
    assert not image.is_error


async def test_structured_content_that_breaks_the_output_schema_becomes_an_error_result(router: ToolRouter) -> None:
    result = await run(router, "bad_output")
    assert result.is_error
    assert (
        "returned an invalid result" in result.render() and "'not a number' is not of type 'integer'" in result.render()
    )


async def test_a_huge_result_arrives_whole_and_is_cut_only_when_rendered(router: ToolRouter) -> None:
    result = await run(router, "lab__huge", size=3_000_000)
    assert result.content[0].text == "x" * 3_000_000
    rendered = result.render(max_chars=1000)
    assert rendered == "x" * 1000 + "\n[... 2999000 more characters cut]"


async def test_calls_of_one_turn_run_concurrently_and_come_back_in_call_order(router: ToolRouter) -> None:
    calls = [
        call("lab__wait_for_signal", "call_a", token="t1"),
        call("nope", "call_b"),
        call("lab__signal", "call_c", token="t1"),  # only answers the first call if both run at once
        call("get-sum", "call_d", a=1, b=2),
    ]
    with anyio.fail_after(15):
        results = await router.call_many(calls)
    assert [r.call_id for r in results] == ["call_a", "call_b", "call_c", "call_d"]
    assert [r.is_error for r in results] == [False, True, False, False]
    assert results[0].render() == "got signal 't1'"


async def test_progress_notifications_are_passed_on_with_their_call(router: ToolRouter) -> None:
    seen: list[tuple[str, float, float | None, str | None]] = []

    async def on_progress(c: ToolCall, progress: float, total: float | None, message: str | None) -> None:
        seen.append((c.id, progress, total, message))

    with anyio.fail_after(15):
        result = await router.call(call("lab__progress", "call_p", steps=3), on_progress=on_progress)
    assert result.render() == "done"
    assert seen == [("call_p", 1, 3, "step 1"), ("call_p", 2, 3, "step 2"), ("call_p", 3, 3, "step 3")]


async def test_a_timeout_becomes_an_error_result_and_cancels_the_call_on_the_server(router: ToolRouter) -> None:
    result = await run(router, "lab__slow", token="timeout")  # the router's timeout is 2 s
    assert result.is_error
    assert "did not answer within 2 s and was cancelled" in result.render()
    confirmation = await run(router, "lab__wait_for_cancellation", token="timeout")
    assert confirmation.render() == "the slow call 'timeout' was cancelled"


async def test_cancelling_the_caller_sends_the_cancellation_to_the_server(router: ToolRouter) -> None:
    started = anyio.Event()

    async def on_progress(c: ToolCall, progress: float, total: float | None, message: str | None) -> None:
        started.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: router.call(call("lab__slow", token="caller"), on_progress=on_progress))
        with anyio.fail_after(10):
            await started.wait()
        tg.cancel_scope.cancel()
    confirmation = await run(router, "lab__wait_for_cancellation", token="caller")
    assert confirmation.render() == "the slow call 'caller' was cancelled"


async def test_every_call_is_audited_without_the_servers_secrets(
    router: ToolRouter, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="shim.audit"):
        secret = await run(router, "lab__get_secret")
        await run(router, "lab__fail", reason="token hunter2-secret-value leaked")
    assert secret.render() == "hunter2-secret-value"  # the tool may return it; the log must not
    records = [r.getMessage() for r in caplog.records if r.name == "shim.audit"]
    assert len(records) == 2
    assert re.match(
        r"tool call id=call_0+1 tool='lab__get_secret' server='lab' arguments=\{\} duration_ms=\d+ outcome=ok$",
        records[0],
    )
    assert "tool='lab__fail'" in records[1] and "outcome=error: " in records[1]
    assert "hunter2-secret-value" not in caplog.text
    assert "token [REDACTED] leaked" in records[1]
    assert "hunter2-secret-value" in router.secrets  # so traces written elsewhere can redact it too


# -- routers of their own: these tests change or kill their servers ---------------------------------------


async def test_a_server_crashing_mid_call_gives_an_error_result_others_keep_working_and_it_restarts() -> None:
    async with make_router({"lab": lab(), "everything": everything()}) as router:
        crashed = await run(router, "crash")
        assert crashed.is_error
        assert "closed the connection during the call to 'crash' (it may have crashed)" in crashed.render()
        assert (await run(router, "everything__echo", message="still here")).render() == "Echo: still here"
        assert (await run(router, "add", a=2, b=3)).render() == "5"


@pytest.mark.parametrize("protocol", ["legacy", "auto"], ids=["2025-11-25-notification", "2026-07-28-listen"])
async def test_refreshes_the_tool_list_when_a_server_announces_a_change(protocol: str) -> None:
    changes: list[list[ToolSpec]] = []
    changed = anyio.Event()

    async def on_tools_changed(tools: list[ToolSpec]) -> None:
        changes.append(tools)
        if any(t.name == "brand_new" for t in tools):
            changed.set()

    servers = {"lab": lab(protocol=protocol, approval="allow")}
    async with make_router(servers, on_tools_changed=on_tools_changed, connect={"lab": lab_in_process()}) as router:
        assert "brand_new" not in {t.name for t in router.tools}
        await run(router, "add_tool", name="brand_new")
        with anyio.fail_after(10):
            await changed.wait()
        assert "brand_new" in {t.name for t in await router.list_tools()}
        assert (await run(router, "brand_new")).render() == "brand_new ran"


async def test_a_server_slower_than_the_startup_timeout_is_reported_then_joins_when_ready(tmp_path: Path) -> None:
    gate = tmp_path / "start"
    joined = anyio.Event()

    async def on_tools_changed(tools: list[ToolSpec]) -> None:
        if any(t.name == "slow__add" for t in tools):  # the slow server joined: names now say which
            joined.set()

    servers = {"slow": lab(env={"LAB_START_WHEN_EXISTS": str(gate)}), "other": lab()}
    # The slow server is a real process waiting for the gate however long the timeout is; the other runs in this
    # process, so it is ready at once however loaded the machine is, and the timeout only has to pass.
    connect = {"other": lab_in_process("other")}
    async with make_router(servers, startup_timeout=1, on_tools_changed=on_tools_changed, connect=connect) as router:
        assert router.failures == {"slow": "server 'slow' did not start within 1 s"}
        assert (await run(router, "echo", message="hi")).render() == "lab echo: hi"
        gate.touch()
        with anyio.fail_after(15):
            await joined.wait()
        assert router.failures == {}
        assert (await run(router, "slow__add", a=1, b=1)).render() == "2"


async def test_the_approval_policy_asks_the_approver_and_respects_deny_rules() -> None:
    asked: list[tuple[str, str]] = []

    async def approver(c: ToolCall, spec: ToolSpec) -> bool:
        asked.append((c.name, spec.name))
        return c.name == "delete_everything"  # the user says yes to this one only

    servers = {"lab": lab(approval={"tools": {"fail": "deny", "huge": "ask"}})}
    async with make_router(servers, approver=approver, connect={"lab": lab_in_process()}) as router:
        assert (await run(router, "delete_everything")).render() == "deleted"  # ask -> approved
        declined = await run(router, "huge", size=1)
        assert declined.is_error and declined.render() == "Error: The user declined the call to 'huge'."
        denied = await run(router, "fail", reason="x")
        assert "is not allowed by this configuration" in denied.render()
        assert (await run(router, "add", a=1, b=1)).render() == "2"  # read-only: never asked
    assert asked == [("delete_everything", "delete_everything"), ("huge", "huge")]


async def test_a_call_with_invalid_arguments_is_refused_before_the_user_is_asked_to_approve_it() -> None:
    asked: list[dict[str, Any]] = []

    async def approver(c: ToolCall, spec: ToolSpec) -> bool:
        asked.append(dict(c.arguments))
        return True

    servers = {"lab": lab(approval={"tools": {"huge": "ask"}})}
    async with make_router(servers, approver=approver) as router:
        invalid = await run(router, "huge", size="ten")  # 'size' must be an integer
        assert invalid.is_error and "size" in invalid.render()
        assert asked == []  # never put to the user: the model fixes the call first
        assert not (await run(router, "huge", size=1)).is_error
    assert asked == [{"size": 1}]
