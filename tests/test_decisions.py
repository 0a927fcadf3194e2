"""Each decision has one owner: read from the ``ast`` of every module of ``shim/``, each decision the architecture
issue names is defined in one place, and the modules that need it call that place instead of deciding again.

A check per decision: where it is defined, and who may call it. A second definition, or a module that re-decides
(a surface that checks which tool a ``tool_choice`` may name, a backend that caps stop sequences itself, a writer
that frames server-sent events by hand), fails here with the module and line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "shim"


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _trees() -> dict[str, ast.Module]:
    return {_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(ROOT.rglob("*.py"))}


@cache
def _all_nodes() -> tuple[tuple[str, ast.AST], ...]:
    return tuple((module, node) for module, tree in _trees().items() for node in ast.walk(tree))


def _nodes() -> Iterator[tuple[str, ast.AST]]:
    return iter(_all_nodes())


@cache
def _docstrings() -> frozenset[int]:
    """The ids of every docstring node, attribute docstrings included: a string standing alone as a statement
    (it describes a decision; it does not make one)."""
    return frozenset(
        id(node.value)
        for _, node in _nodes()
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    )


def definitions(name: str) -> list[str]:
    """Where a function or class called ``name`` is defined (``module:line``)."""
    return [
        f"{module}:{node.lineno}"
        for module, node in _nodes()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name
    ]


def callers(name: str) -> set[str]:
    """The modules that call ``name``: a bare name or an attribute (``f(...)``, ``x.f(...)``), or with a dot, that
    exact attribute of that name (``"TurnChoice.of"``)."""
    owner, _, name = name.rpartition(".")
    found: set[str] = set()
    for module, node in _nodes():
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            on = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
            if called == name and (not owner or on == owner):
                found.add(module)
    return found


def strings(predicate: object) -> set[str]:
    """The modules holding a string or bytes literal (docstrings aside) for which ``predicate`` is true."""
    assert callable(predicate)
    docs = _docstrings()
    found: set[str] = set()
    for module, node in _nodes():
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) and id(node) not in docs:
            text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if predicate(text):
                found.add(module)
    return found


def _outside(found: set[str], *prefixes: str) -> set[str]:
    return {m for m in found if not any(m == p or m.startswith(p + ".") for p in prefixes)}


# -- tool_choice: the loop decides (TurnChoice), once per turn; the wire checks shape only ---------------------


def test_a_tool_choice_is_reduced_by_one_function_and_decided_by_the_loop_alone() -> None:
    assert [d.split(":")[0] for d in definitions("normalize_tool_choice")] == ["shim.choice"]
    # TurnChoice reduces it for the loop; `render_system_prompt` for a caller that hands it a raw choice.
    assert callers("normalize_tool_choice") == {"shim.tool_choice", "shim.prompting.system"}
    assert [d.split(":")[0] for d in definitions("TurnChoice")] == ["shim.tool_choice"]
    assert callers("TurnChoice.of") == {"shim.agent"}  # once a turn, handed down as a NormalizedChoice


def test_no_surface_decides_which_tools_a_tool_choice_may_name() -> None:
    """The surfaces keep the shape check; a choice naming a tool only the server runs is theirs to pass on."""
    server = {m for m, tree in _trees().items() if m.startswith("shim.server")}
    deciding = {
        m
        for m in server
        for node in ast.walk(_trees()[m])
        if isinstance(node, ast.ImportFrom)
        and node.module in ("shim.tool_choice", "shim.choice")
        and any(a.name in ("TurnChoice", "normalize_tool_choice") for a in node.names)
    }
    assert deciding == set()


# -- stop sequences: capped once, after the backend adds its own -----------------------------------------------


def test_stop_sequences_are_capped_in_one_place() -> None:
    assert [d.split(":")[0] for d in definitions("merge_stop")] == ["shim.backends.base"]
    assert callers("merge_stop") == {"shim.backends.base"}  # inside `stop_sequences`, which every engine calls
    assigned = [
        module
        for module, node in _nodes()
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "MAX_STOP" for t in node.targets)
    ]
    assert assigned == ["shim.backends.base"]


# -- XML values: one typer for every XML family ---------------------------------------------------------------


def test_xml_parameter_values_are_typed_by_one_function() -> None:
    typers = [d for d in definitions("typed_value")] + [
        f"{module}:{node.lineno}"
        for module, node in _nodes()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and "typed_value" in node.name
        and node.name != "typed_value"
    ]
    assert [t.split(":")[0] for t in typers] == ["shim.parsing.xml_values"]


# -- the unknown-tool message: one wording, whoever runs the tool ----------------------------------------------


def test_the_unknown_tool_message_is_written_in_one_place() -> None:
    assert [d.split(":")[0] for d in definitions("unknown_tool_message")] == ["shim.validation"]
    assert _outside(strings(lambda s: "unknown tool" in s.lower()), "shim.bench") == {"shim.validation"}


# -- ids: call ids and response ids from one module ------------------------------------------------------------


def test_ids_are_drawn_from_one_module() -> None:
    randoms = callers("token_hex") | callers("uuid4") | callers("getrandbits")
    assert _outside(randoms, "shim.bench") == {"shim.ids"}


# -- engine extras: the backend says which it takes -------------------------------------------------------------


def test_which_extras_an_engine_takes_is_said_by_the_backends_alone() -> None:
    declared = {
        module
        for module, node in _nodes()
        if (isinstance(node, (ast.Assign, ast.AnnAssign)) and "extra_keys" in ast.unparse(node).split("=")[0])
        or (isinstance(node, ast.FunctionDef) and node.name == "extra_keys")
    }
    assert declared and _outside(declared, "shim.backends") == set()


# -- SSE: one writer frames every surface's stream --------------------------------------------------------------


def test_server_sent_events_are_framed_by_one_writer() -> None:
    framing = strings(lambda s: s.startswith(("data: ", "event: ", "data:[")))
    assert framing == {"shim.server.sse"}


# -- lenient JSON: the parser's reader, read through its entry point ----------------------------------------------


def test_json_values_in_model_text_are_found_only_by_the_parser_package() -> None:
    decoders = callers("raw_decode") | callers("JSONDecoder")
    assert _outside(decoders, "shim.parsing", "shim.bench") == set()


def test_a_structured_answer_is_read_by_the_parser_s_lenient_json() -> None:
    assert "shim.server.structured" in callers("loads")
    tree = _trees()["shim.server.structured"]
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert "lenient_json" in imported


# -- the event fold: CallFold, which every consumer of a turn's events uses ----------------------------------------


def test_parser_events_are_folded_in_one_place() -> None:
    assert [d.split(":")[0] for d in definitions("CallFold")] == ["shim.events"]
    chunk_readers = {
        module
        for module, node in _nodes()
        if isinstance(node, ast.Attribute) and node.attr == "arguments_chunk" and isinstance(node.ctx, ast.Load)
    }
    assert _outside(chunk_readers, "shim.bench") == {"shim.events"}  # the fold, and the event's own to_dict


# -- the call-constraint header: the loop's own decision -------------------------------------------------------------


def test_whether_calls_are_constrained_is_decided_by_the_loop_alone() -> None:
    """The server's ``x-shim-call-constraint`` header is the loop's notice; no surface checks ``can_constrain``
    to guess it beforehand."""
    readers = {
        module
        for module, node in _nodes()
        if isinstance(node, ast.Attribute) and node.attr == "can_constrain" and isinstance(node.ctx, ast.Load)
    }
    assert _outside(readers, "shim.backends", "shim.bench", "shim.cli") == {"shim.agent_types"}


def test_the_structured_output_method_is_chosen_once_by_the_loop_that_uses_it() -> None:
    """``x-shim-structured-output`` is the method `shim.server.structured` chose, told through `shim.notices`."""
    assert callers("structured_method") == {"shim.server.structured"}
    assert definitions("structured_header") == []


def test_the_prompt_a_model_gets_is_rendered_by_the_loop_alone() -> None:
    """A surface that needs the prompt (Anthropic's count_tokens) asks the loop for it (`Agent.prompt`), so the
    tool choice is decided by its one owner, against the server's tools too."""
    assert _outside(callers("render_messages"), "shim.prompting", "shim.cli", "shim.bench") == {"shim.agent"}
