"""``shim profiles``: the model families shim knows, the call format each is asked in, and how it is found."""

from __future__ import annotations

import json
from typing import Any

import anyio
import click

from shim.errors import ShimError
from shim.profiles import DEFAULT_PROFILE, PROFILES, Detection, ModelProfile, detect, detect_profile, from_template


@click.command()
@click.option("--model", "-m", "model", metavar="SPEC", help="Only say which profile this model gets, and why.")
@click.option(
    "--detect",
    "ask_engine",
    is_flag=True,
    help="With --model: ask the engine for the model's family and chat template too (else: the name only).",
)
@click.option(
    "--template",
    "template",
    type=click.Path(exists=True, dir_okay=False),
    help="Derive the call syntax from this chat template file (Jinja, as in tokenizer_config.json) and print it.",
)
@click.option("--json", "as_json", is_flag=True, help="Print every profile as one JSON object per line.")
def profiles(model: str | None, ask_engine: bool, template: str | None, as_json: bool) -> None:
    """List the model profiles: the prompt dialect each family is asked in, and the rule that detects it.

    A profile is found from, in this order: an override (--profile NAME on run, chat, prompt and serve, or
    "profile" in the config's "shim" object), the model's name (the first rule that matches wins), the family
    the engine reports, the call markers in the model's chat template, else the default. A chat template
    whose generation prompt opens <think> also makes replies start inside reasoning. Whatever the profile,
    the parser reads every family's call syntax: the profile only decides which it tries first.

    \b
    Examples:
      shim profiles
      shim profiles --model ollama:qwen3:8b
      shim profiles --model llama-cpp:./model.gguf --detect
      shim profiles --template chat_template.jinja
    """
    if template is not None:
        _print_template(template, as_json)
        return
    if ask_engine and not model:
        raise click.UsageError("--detect needs --model SPEC: the engine to ask")
    found = (_detected(model) if ask_engine else detect(model)) if model else None
    for profile in [found.profile] if found else [*PROFILES, DEFAULT_PROFILE]:
        if as_json:
            click.echo(json.dumps(_row(profile, found), ensure_ascii=False))
            continue
        click.echo(f"{profile.name:<12} {profile.dialect:<14} {profile.rule}")
        if found is not None:
            alone = "" if ask_engine else " (the name only; --detect also asks the engine for family and template)"
            click.echo(f"  chosen: {found.describe()}{alone}")
            for quirk in profile.quirks:
                click.echo(f"  - {quirk}")
            _print_syntax(profile)


def _print_template(path: str, as_json: bool) -> None:
    try:
        with open(path, encoding="utf-8") as file:
            profile = from_template(file.read())
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {path!r}: {exc}") from None
    except ValueError as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    assert profile.syntax is not None
    if as_json:
        click.echo(json.dumps(_row(profile, None), ensure_ascii=False))
        return
    click.echo(f"call syntax derived from {path}:")
    _print_syntax(profile)


def _print_syntax(profile: ModelProfile) -> None:
    if profile.syntax is None:
        return
    for field, value in profile.syntax.describe():
        click.echo(f"  {field:<16} {value}")
    if profile.thinking:
        opens = "; the generation prompt opens it" if profile.starts_in_reasoning else ""
        click.echo(f"  {'reasoning':<16} {json.dumps(list(profile.thinking), ensure_ascii=False)}{opens}")


def _detected(model: str) -> Detection:
    from shim.backends import get_backend

    async def ask() -> Detection:
        backend = get_backend(model)
        try:
            return await detect_profile(backend, model)
        finally:
            await backend.aclose()

    try:
        return anyio.run(ask)
    except (ShimError, ImportError) as exc:
        raise click.ClickException(str(exc)) from None


def _row(profile: ModelProfile, found: Detection | None) -> dict[str, Any]:
    row: dict[str, Any] = {
        "name": profile.name,
        "syntax": {k: json.loads(v) for k, v in profile.syntax.describe()} if profile.syntax else None,
        "dialect": profile.dialect,
        "rule": profile.rule,
        "readers": list(profile.readers),
        "thinking": list(profile.thinking) if profile.thinking else None,
        "starts_in_reasoning": profile.starts_in_reasoning,
        "stop": list(profile.stop),
        "template_markers": list(profile.template_markers),
        "quirks": list(profile.quirks),
    }
    if found is not None:
        row |= {"evidence": found.evidence, "detail": found.detail}
    return row
