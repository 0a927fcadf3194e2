"""``shim profiles``: the model families shim knows, the call format each is asked in, and how it is found."""

from __future__ import annotations

import json

import click

from shim.profiles import DEFAULT_PROFILE, PROFILES, find_profile


@click.command()
@click.option("--model", "-m", "model", metavar="SPEC", help="Only say which profile this model gets, and why.")
@click.option("--json", "as_json", is_flag=True, help="Print every profile as one JSON object per line.")
def profiles(model: str | None, as_json: bool) -> None:
    """List the model profiles: the prompt dialect each family is asked in, and the rule that detects it.

    A profile is found from the model's name (the first rule that matches wins), else from the family the
    engine reports; override it with --profile NAME on run, chat and prompt, or "profile" in the config's
    "shim" object. Whatever the profile, the parser reads every family's call syntax: the profile only
    decides which it tries first.

    \b
    Examples:
      shim profiles
      shim profiles --model ollama:qwen3:8b
    """
    chosen = [find_profile(model)] if model else [*PROFILES, DEFAULT_PROFILE]
    for profile in chosen:
        if as_json:
            row = {
                "name": profile.name,
                "dialect": profile.dialect,
                "rule": profile.rule,
                "readers": list(profile.readers),
                "thinking": list(profile.thinking) if profile.thinking else None,
                "starts_in_reasoning": profile.starts_in_reasoning,
                "stop": list(profile.stop),
                "quirks": list(profile.quirks),
            }
            click.echo(json.dumps(row, ensure_ascii=False))
        else:
            click.echo(f"{profile.name:<12} {profile.dialect:<14} {profile.rule}")
            if model:
                for quirk in profile.quirks:
                    click.echo(f"  - {quirk}")
