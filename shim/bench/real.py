"""The two quoted corpora: what real models printed (``benchmarks/real``) and real prose (``benchmarks/decoys``).

Real outputs: ``benchmarks/real/<family>/<name>.txt`` holds the output byte for byte and ``<name>.json`` what a
careful reader sees in it, where it was found and the sha256 of the text (so an editor that "fixes" a line
ending or a trailing space is caught). Decoys: ``benchmarks/decoys/<kind>/<name>.<ext>`` holds a document and
``benchmarks/decoys/sources.json`` where each came from, under which licence, and the tool names a user might
offer while pasting it (names that appear in the document included). A decoy passes when the parser reads no
call, reports no error and keeps every character visible.

Both folders are copied into the wheel (``shim/_data/benchmarks``) like the fixtures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from shim.bench.corpus import Case
from shim.bench.mutations import Call
from shim.resources import data_dir

__all__ = [
    "NEGATIVE",
    "PROVENANCE_TYPES",
    "decoys_dir",
    "families",
    "load_decoys",
    "load_hunts",
    "load_real",
    "real_case",
    "real_dir",
    "validate_real",
]

PROVENANCE_TYPES = ("peer_test", "model_output", "bfcl_result", "document")
"""``peer_test``: a string from another project's parser tests; ``model_output``: a user pasted what the model
printed (an issue thread); ``bfcl_result``: a raw prompt-mode result file of the Berkeley leaderboard;
``document``: an engine's or a model's documentation (an output it quotes, or prose that shows calls)."""

_DECOY_TOOLS_KEY = "tools"

NEGATIVE = "negative"
"""The real track's folder of outputs and prompts that show or discuss calls without making one."""


def real_dir() -> Path:
    """``benchmarks/real`` of the checkout, or its copy inside an installed wheel.

    Raises:
        FileNotFoundError: neither exists (a broken install).
    """
    return data_dir("benchmarks") / "real"


def decoys_dir() -> Path:
    """``benchmarks/decoys`` of the checkout, or its copy inside an installed wheel.

    Raises:
        FileNotFoundError: neither exists (a broken install).
    """
    return data_dir("benchmarks") / "decoys"


def _read_exact(path: Path) -> str:
    # newline="" keeps \r\n and a missing final newline exactly as quoted.
    with path.open(encoding="utf-8", newline="") as f:
        return f.read()


def _mcp_tool(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A metadata tool entry (``name`` + optional JSON-schema ``parameters``) as an MCP ``tools/list`` entry."""
    schema = entry.get("parameters") or {"type": "object"}
    return {"name": entry["name"], "description": entry.get("description", ""), "inputSchema": schema}


def validate_real(meta: Any, text: str, *, family: str) -> list[str]:
    """Every problem of one real case's metadata (empty when it is valid)."""
    if not isinstance(meta, dict):
        return ["the metadata is not a JSON object"]
    m = cast("dict[str, Any]", meta)
    problems: list[str] = []
    if m.get("family") != family:
        problems.append(f"family {m.get('family')!r} differs from its folder {family!r}")
    prov = m.get("provenance")
    if not isinstance(prov, dict):
        problems.append("provenance is missing")
    else:
        p = cast("dict[str, Any]", prov)
        if p.get("type") not in PROVENANCE_TYPES:
            problems.append(f"provenance type {p.get('type')!r} is not one of {', '.join(PROVENANCE_TYPES)}")
        if not isinstance(p.get("source"), str) or not p["source"].strip():
            problems.append("provenance has no source (owner/repo:path[@commit])")
        if p.get("type") == "model_output" and not str(p.get("url", "")).startswith("https://"):
            problems.append("a model output pasted by a user needs the public url of the thread")
    tools = m.get("tools")
    names: set[str] = set()
    if not isinstance(tools, list) or not tools:
        problems.append("tools must list at least one offered tool")
    else:
        for tool in cast("list[Any]", tools):
            if not isinstance(tool, dict) or not isinstance(cast("dict[str, Any]", tool).get("name"), str):
                problems.append(f"tool entry {tool!r} has no name")
            else:
                names.add(cast("dict[str, Any]", tool)["name"])
    calls = m.get("calls")
    if not isinstance(calls, list):
        problems.append("calls must be a list")
    else:
        for call in cast("list[Any]", calls):
            c = cast("dict[str, Any]", call) if isinstance(call, dict) else {}
            if not isinstance(c.get("name"), str) or not isinstance(c.get("arguments"), dict):
                problems.append(f"call {call!r} needs a name and an arguments object")
            elif c["name"] not in names:
                problems.append(f"call {c['name']!r} is not among the offered tools")
    if not isinstance(m.get("starts_in_reasoning", False), bool):
        problems.append("starts_in_reasoning must be true or false")
    if not isinstance(m.get("runs_past_stop", False), bool):
        problems.append("runs_past_stop must be true or false")
    if not isinstance(m.get("visible"), str):
        problems.append("visible must be a string")
    if family == NEGATIVE and (m.get("calls") or m.get("visible") != text):
        problems.append("a negative case makes no call and keeps every character visible")
    if "hunt" in m:
        first = m.get("first_look")
        if not isinstance(first, dict) or not all(
            isinstance(cast("dict[str, Any]", first).get(k), bool) for k in ("exact_calls", "all_checks")
        ):
            problems.append("a case from a hunt needs first_look {exact_calls, all_checks} recorded before any change")
    if m.get("sha256") != hashlib.sha256(text.encode("utf-8")).hexdigest():
        problems.append("sha256 does not match the text: the quoted output was changed")
    return problems


def load_real(folder: Path | None = None) -> list[Case]:
    """Every real output, sorted by family and name.

    Raises:
        ValueError: a text lacks its sidecar, or a sidecar is invalid (every problem is named).
    """
    folder = folder or real_dir()
    cases: list[Case] = []
    for txt in sorted(folder.glob("*/*.txt")):
        family = txt.parent.name
        sidecar = txt.with_suffix(".json")
        if not sidecar.is_file():
            raise ValueError(f"real output {family}/{txt.name} has no sidecar {sidecar.name!r}")
        text = _read_exact(txt)
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        problems = validate_real(meta, text, family=family)
        if problems:
            raise ValueError(f"real output {family}/{txt.stem}: " + "; ".join(problems))
        cases.append(real_case(meta, text, family=family, name=txt.stem))
    return cases


def real_case(meta: dict[str, Any], text: str, *, family: str, name: str) -> Case:
    """The scored case of one validated real output (its sidecar ``meta`` and its exact ``text``)."""
    prov = meta["provenance"]
    return Case(
        id=f"real:{family}/{name}",
        category=family,
        operator=name,
        source="real",
        text=text,
        calls=[Call(name=c["name"], arguments=c["arguments"]) for c in meta["calls"]],
        visible=meta["visible"],
        errors=None,  # a parser may report the repairs it made; only calls and text are scored
        note=f"{prov['type']}: {prov.get('url') or prov['source']}",
        tools=tuple(_mcp_tool(t) for t in meta["tools"]),
        starts_in_reasoning=meta.get("starts_in_reasoning", False),
    )


def load_hunts(folder: Path | None = None) -> dict[str, dict[str, Any]]:
    """Per real case id: the hunt that added it and its first-look score (cases added before hunts were
    recorded have none).

    The first look is what the parser read *before* any change made for that hunt's sources, recorded once
    in the sidecar (``first_look``: ``exact_calls``, ``all_checks``): the honest measure of how well it reads
    outputs it has never seen. It cannot be recomputed later, so it is data, not a result.
    """
    folder = folder or real_dir()
    hunts: dict[str, dict[str, Any]] = {}
    for sidecar in sorted(folder.glob("*/*.json")):
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        if isinstance(meta, dict) and "hunt" in meta:
            m = cast("dict[str, Any]", meta)
            hunts[f"real:{sidecar.parent.name}/{sidecar.stem}"] = {
                "hunt": m["hunt"],
                "first_look": m.get("first_look"),
            }
    return hunts


def load_decoys(folder: Path | None = None) -> list[Case]:
    """Every decoy document listed in ``sources.json``, in its order.

    Raises:
        ValueError: ``sources.json`` lists a missing file, or an entry lacks its source, licence or tools.
    """
    folder = folder or decoys_dir()
    index = json.loads((folder / "sources.json").read_text(encoding="utf-8"))
    cases: list[Case] = []
    for entry in index["documents"]:
        path = folder / entry["file"]
        missing = [k for k in ("file", "kind", "source", "license", _DECOY_TOOLS_KEY) if not entry.get(k)]
        if missing:
            raise ValueError(f"decoy entry {entry.get('file')!r} lacks {', '.join(missing)}")
        if not path.is_file():
            raise ValueError(f"decoy {entry['file']!r} is listed in sources.json but missing")
        text = _read_exact(path)
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != entry.get("sha256"):
            raise ValueError(f"decoy {entry['file']!r}: sha256 does not match the quoted document")
        cases.append(
            Case(
                id=f"decoy:{entry['file']}",
                category=entry["kind"],
                operator=Path(entry["file"]).stem,
                source="decoy",
                text=text,
                calls=[],
                visible=text,
                errors=0,
                note=f"{entry['source']} ({entry['license']})",
                tools=tuple(_mcp_tool({"name": n}) for n in entry[_DECOY_TOOLS_KEY]),
            )
        )
    return cases


def families(cases: list[Case]) -> list[str]:
    """The dialect families of real cases, in corpus order."""
    return list(dict.fromkeys(c.category for c in cases))
