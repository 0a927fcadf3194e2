"""A Markdown code fence of a programming language: code shown in prose, never a call.

Inside ```` ```python ```` … ```` ``` ```` a line ``get_weather(city='Lima')`` is an example, not a call, and
so is a JSON object, a pythonic list or a tagged call: nothing in it is read. The row is of kind ``prose``
(one of the core's rules for prose, `shim.parsing.readers.prose`): it applies whether tools are offered or
not. Fences whose language says
"call" (``json``, ``tool_code``, ``tool_call``, ``function_call``) and markup fences that may quote a tagged
call (``xml``, ``html``) are not this row's; a fence with no language is not either (LangChain's blob).

A language is a name of `LANGUAGES` (programming, shell, data, configuration, markup and template languages, by
the names and aliases highlighters use, and the words that say a block is an example: ``example``, ``sample``,
``usage``, ``syntax``). A fence named by another word (``homeassistant``, the block home-llm
trains its model to write) names no language: it is a framework's call block, read as the ```` ```json ````
fence is (`shim.parsing.readers.untagged.FENCE`, an offered tool's call only).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next

__all__ = ["CODE_WORD", "LANGUAGES", "NOT_CODE", "ROWS", "CodeFence"]


def _names(*groups: str) -> tuple[str, ...]:
    return tuple(" ".join(groups).split())


LANGUAGES = _names(
    # programming
    "python py py3 python3 ipython pycon pyi javascript js mjs cjs node typescript ts jsx tsx java kotlin kt kts "
    "scala sc groovy c h cpp c++ cc cxx hpp hxx csharp cs c# fsharp fs f# go golang rust rs ruby rb php perl pl pm "
    "swift objc objective-c objectivec dart lua r julia jl haskell hs elixir ex exs erlang erl clojure clj cljs edn "
    "ocaml ml elm nim zig v d pascal delphi fortran f90 cobol lisp elisp emacs-lisp scheme racket prolog matlab "
    "octave vb vbnet vba vbscript assembly asm nasm x86asm wasm wat solidity sol move cairo verilog vhdl cuda glsl "
    "hlsl wgsl mojo crystal cr coffeescript coffee livescript purescript reason rescript gdscript apex abap "
    "smalltalk tcl awk sed ada apl j k q "
    # shells and sessions
    "bash sh zsh fish ksh csh tcsh shell console terminal shellsession shell-session sh-session bash-session "
    "powershell ps ps1 psm1 pwsh cmd bat batch dos doscon nushell nu "
    # data and configuration
    "jsonl ndjson json-lines geojson yaml yml toml ini cfg conf config properties env dotenv csv tsv sql mysql "
    "postgresql postgres psql plsql plpgsql sqlite tsql graphql gql proto protobuf thrift avro capnp hcl "
    "terraform tf nix dockerfile docker containerfile makefile make mk cmake gradle maven pom nginx apache "
    "apacheconf htaccess systemd crontab prisma kdl ron starlark bzl bazel jsonnet cue dhall pkl "
    # markup, styles, templates and other notations
    "css scss sass less stylus svg latex tex bibtex rst restructuredtext asciidoc adoc org pod typst jinja "
    "jinja2 j2 django twig liquid handlebars hbs mustache gotmpl gotemplate go-template go-html-template ejs "
    "erb haml pug jade slim svelte vue astro mdx mermaid plantuml puml dot graphviz diff patch udiff regex "
    "log logs output stdout stderr txt nohighlight none ansi http httpie curl wget "
    # words that say the block is shown, not made: a prompt's or a doc's example of a call (gptme's ```example)
    "example examples sample samples demo template usage syntax pseudo pseudocode",
)
"""Fence info strings that name a language; a fence so named shows code. Matched whole and ignoring case."""

_LANGUAGE = "|".join(regex.escape(name) for name in sorted(LANGUAGES, key=len, reverse=True))
_WORD_END = r"(?![\w+#.\-])"
CODE_WORD = rf"(?i:{_LANGUAGE}){_WORD_END}"
"""A fence's info string that names a language (`LANGUAGES`)."""
NOT_CODE = (
    rf"(?i:json5?|jsonc|tool_calls?|function_calls?|tool_code|tool|xml|html|text|plaintext|markdown|md){_WORD_END}"
)
"""A fence's info string that names a call (``json``, ``tool_call``), markup that may quote one, or plain text."""
OPEN = rf"```[ \t]{{0,2}}(?!{NOT_CODE})(?={CODE_WORD})[A-Za-z][\w+#.\-]{{0,20}}[ \t]*\r?\n"


class CodeFence:
    """Passes the fence's content through as text up to the closing fence, streaming it as it comes."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = text.find("```", pos)
        if found >= 0:
            self.ctx.consume(text[pos : found + 3])
            self.ctx.revert()
            return found + 3, None
        # The last two characters may begin the closing fence: keep them for the next chunk.
        end = len(text) if final else max(pos, len(text) - 2)
        if end > pos:
            self.ctx.consume(text[pos:end])
            self.ctx.revert()
        return end, (self if final else MORE)

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def open_code_fence(ctx: Context, block: Block, match: regex.Match[str]) -> CodeFence:
    del block, match
    return CodeFence(ctx)


ROWS = [Dialect("code_fence", OPEN, None, kind="prose", first="`", reader=open_code_fence)]
