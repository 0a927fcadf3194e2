"""The family table: every way of writing a call (or reasoning) that `StreamParser` reads, one row each.

A row is a `Dialect`: where a block may start (its opener pattern, and the evidence it needs: ``kind``
``untagged`` rows count only when tools are known, ``start="message"`` rows only where the message begins)
and the `Reader` that reads its body (see `shim.parsing.readers.base` for the protocol). Adding a family:
one module here with its reader and its ``ROWS``, listed below, plus fixtures in ``tests/parsing``.

Order matters where two openers can match at the same place: the first row wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

import regex

from shim.parsing.readers import (
    angle_calls,
    angle_markers,
    answer_fence,
    at_call,
    attribute_call,
    bracket_action,
    bracket_attrs,
    bracket_command,
    bracket_name_args,
    bracket_name_json,
    bracket_tool_call_kv,
    bracket_wrapper,
    call_fence,
    call_tokens,
    chatglm3,
    code_fence,
    codeact,
    colon_action,
    command_argument,
    command_fence,
    command_line,
    cwm,
    deepseek,
    dsml,
    dspy_fields,
    gemma,
    gemma4,
    glm,
    granite,
    harmony,
    harness_label,
    hyperclovax,
    inkling,
    json_tail,
    kimi,
    kv_lines,
    labelled,
    langchain_blob,
    langchain_xml,
    lfm2,
    llama,
    llama4,
    lmstudio,
    minicpm,
    minimax,
    minimax_bracket,
    mistral,
    name_first,
    named_opener,
    namespaced,
    olmo,
    orphan_closer,
    paren_action,
    phi4,
    prose,
    prose_call,
    pythonic_calls,
    pythonic_list,
    qwen_agent_json,
    qwen_xml,
    qwen_xml_drift,
    react,
    reasoning,
    request_key,
    response_header,
    run_label,
    shell_prompt,
    special_tokens,
    tagged_json,
    token_call,
    tool_call_colon,
    tool_call_for,
    tool_colon_command,
    tool_fence,
    tool_request_bracket,
    tool_xml,
    typed_action,
    untagged,
    unused_tokens,
    vcp,
    word_name_json,
    yaml_fence,
)
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next, Reader, ReaderFactory
from shim.parsing.shapes import ToolIndex

__all__ = [
    "DEFAULT_DIALECTS",
    "MORE",
    "Block",
    "Context",
    "Dialect",
    "Next",
    "Reader",
    "ReaderFactory",
    "reader_for",
    "register_dialect",
    "rows_for",
]

DEFAULT_DIALECTS: list[Dialect] = [
    *attribute_call.ROWS,  # <tool_use server="S" name="NAME" args='{…}' />: a call tag's attributes are the call
    *namespaced.ROWS,  # <qwen:tool_call xmlns:qwen="URI"><qwen:tool_name>…: a call tag's declared XML namespace
    *langchain_xml.ROWS,  # <tool>NAME</tool><tool_input>…</tool_input> (LangChain), before <tool>{…}</tool>
    *tagged_json.ROWS,  # <function_call> (shim's own), <tool_call> (Hermes, Qwen), <functioncall>, <tool>
    *glm.FUNCTION_TAG_ROWS,  # <tool_call><function>NAME</function><arg_key>…: GLM's pairs, before Qwen's damaged opener
    *qwen_xml.ROWS,  # <function=NAME><parameter=K>V</parameter></function>; Llama 3.1 <function=NAME>{…}
    *qwen_xml_drift.ROWS,  # <parameter=NAME>, <name>NAME before <parameter=K> blocks (offered tools only)
    *vcp.ROWS,  # <<<[TOOL_REQUEST]>>> tool_name:「始」NAME「末」, KEY:「始」VALUE「末」 <<<[END_TOOL_REQUEST]>>> (VCP)
    *lmstudio.ROWS,  # [TOOL_REQUEST]{…}[END_TOOL_REQUEST]
    *angle_markers.ROWS,  # <<<TOOL_CALLS>>>[{…}]<<<END_TOOL_CALLS>>> (m365-copilot-proxy's tool emulation)
    *mistral.ROWS,  # [TOOL_CALLS][{…}] and [TOOL_CALLS]NAME[ARGS]{…}
    *llama.ROWS,  # <|python_tag|>{…}<|eom_id|>
    *deepseek.ROWS,  # DeepSeek V3, V3.1, R1 special tokens
    *glm.ROWS,  # <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call> (inside <tool_call>)
    *minimax.ROWS,  # <invoke name="NAME"><parameter name="K">V</parameter></invoke>, bare or wrapped
    *dsml.ROWS,  # DeepSeek V3.2/V4: <|DSML|function_calls><|DSML|invoke name=…> (full-width bars)
    *special_tokens.ROWS,  # <|action_start|><|plugin|>{…}<|action_end|>, <|START_ACTION|>[…], <|tools_prefix|>[…]
    *kimi.ROWS,  # <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}
    *cwm.ROWS,  # <tool: bash>\nls\n</tool>, <tool: function>\nNAME INPUT\n</tool> (Meta CWM), opening the message
    *hyperclovax.ROWS,  # -> tool/function_call\n[{…}] or -> tool/NAME\n{…} opening the message (HyperCLOVA X)
    *harmony.ROWS,  # gpt-oss: <|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>
    *reasoning.ROWS,  # <think>, <thinking>, <reasoning>, <|START_THINKING|>
    *langchain_blob.ROWS,  # w-fam2: ```\n{"action": NAME, "action_input": …}``` (LangChain), before the ```json row
    # -- families of issue 15 (w-fam1) --
    *gemma4.ROWS,  # <|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>, FunctionGemma, stripped call:NAME{…}
    *granite.ROWS,  # <|tool_call|>[{…}]
    *lfm2.ROWS,  # <|tool_call_start|>[NAME(k="v")]<|tool_call_end|>
    *llama4.ROWS,  # <|python_start|>[NAME(k='v')]<|python_end|>
    *minicpm.ROWS,  # <function name="NAME"><param name="k">v</param></function>
    *olmo.ROWS,  # <function_calls>NAME(k="v")\nNAME(…)</function_calls>
    *phi4.ROWS,  # functools[{…}] naming known tools
    *command_argument.FENCE_ROWS,  # ```tool_code\nGET https://… (before its row of Python calls), offered tools
    *gemma.ROWS,  # ```tool_code fence of NAME(k="v") lines, known tools only (before the ```json fence row)
    # -- end w-fam1 --
    # After every family's own tokens: the spellings no row names, by the words of their tokens.
    *call_tokens.ROWS,  # <|function_call|>{…}, <|tool_call:start|>NAME<|tool_arg:start|>…, role headers, Kimi K3
    *kv_lines.ENVELOPE_ROWS,  # name: NAME / args: / KEY: value lines (an unfenced YAML envelope; offered tools, keys)
    *tool_fence.ROWS,  # ```tool\nTOOL_NAME: NAME\nBEGIN_ARG: K\nV\nEND_ARG\n``` (Continue), before code fences
    *call_fence.ROWS,  # ```tool_call\nNAME(k="v")\n```: a fence labelled a call holding Python calls, offered tools
    *dspy_fields.ROWS,  # [[ ## next_tool_name ## ]] NAME [[ ## next_tool_args ## ]] {…} (DSPy ReAct), offered tools
    # [Calling tool="NAME" k="v"], [Calling tool: NAME with arguments: {…}]: a call line copied from the chat history
    # (offered tools); before labelled's [Calling tool: NAME({…})], which would take the second's opener
    *bracket_attrs.ROWS,
    *labelled.ROWS,  # **Tool Call:** / [[ ## tool_calls ## ]] right before a call block: the label is markup
    *tool_call_for.ROWS,  # [tool_call: NAME for KEY 'VALUE']: Gemini CLI's prompt notation (offered tools, keys)
    *bracket_tool_call_kv.ROWS,  # [Tool Call] name=NAME id=ID args={…}: a client's log line (offered tools)
    *qwen_agent_json.ROWS,  # ✿FUNCTION✿ {…} ✿: Qwen-Agent's marker before a JSON call object (offered tools)
    *harness_label.ROWS,  # [tool]: {…}: a harness's label before a call on its line, markup (offered tools)
    *bracket_wrapper.ROWS,  # [tool_call]\n<invoke name=…>…: a wrapper's word in brackets before a tagged call, markup
    *bracket_name_args.ROWS,  # [NAME]{…}</NAME>, [NAME]FUNC() anywhere: xLAM's bracketed name (offered tools)
    *bracket_name_json.ROWS,  # [NAME, {…}] opening the message or a line: a name-and-arguments pair (offered tools)
    *word_name_json.ROWS,  # tool_call\nNAME\n{…} opening the message or a line: duma's legacy lines (offered tools)
    *tool_request_bracket.ROWS,  # TOOL_REQUEST[NAME:{…}] anywhere in prose (Ada's request notation, offered tools)
    *prose_call.ROWS,  # Hello create_file({…}) World, set_reaction{k: 'v'} in prose (offered tools, declared keys)
    *tool_call_colon.ROWS,  # … TOOL_CALL: {"tool": NAME, "params": {…}} anywhere in prose (Holmium, offered tools)
    *named_opener.ROWS,  # <<tool:NAME>>{…}<</tool>>, [TOOL:NAME] {…}, ```tool_call:NAME fences (offered tools)
    *at_call.FENCE_ROWS,  # ```\n@NAME(ID): {…}\n```: gptme's call shown in a fence is text
    pythonic_list.FENCE,  # ```\n[get_weather(city='Lima')]\n```: a fenced call list, known tools only
    pythonic_list.MESSAGE_FENCE,  # ```python\n[get_weather(city='Lima')]\n``` opening the message: the answer
    *answer_fence.ROWS,  # ```bash\n{"name": …}\n```: a JSON call mislabelled as shell code, the answer
    *answer_fence.PYTHON_ROWS,  # ```python\n[{"name": …}]\n``` opening the message: the answer
    *command_fence.ROWS,  # ```\nls\n``` ending the message: the one offered shell runner's command (SWE-agent)
    untagged.FENCE,  # ```json {…} ``` naming a known tool
    *yaml_fence.ROWS,  # ```yaml tool_name: NAME / tool_args: … ```, an offered tool's call envelope (CAMEL)
    *chatglm3.ROWS,  # NAME\n```python\ntool_call(k='v')\n``` (ChatGLM3): a name line, then its fenced call
    *code_fence.ROWS,  # ```python … ```: code shown in prose stays text, whatever it holds
    *prose.ROWS,  # `<tool_call>` in an inline code span: named, not written
    # Before pythonic_list: a list glued to a backtick or a word (inline code, a link) is refused here, as text.
    *paren_action.ROWS,  # Action: bash(ls -la): one raw argument in parentheses (klauscode's ReAct), offered tools
    *colon_action.ROWS,  # Action: calculate: 37 + 20 / PAUSE: the raw input after the name's colon (ReAct loop)
    *pythonic_calls.ROWS,  # get_weather(city="Paris") alone on its line; [get_weather(…)] after text
    *pythonic_list.ROWS,  # [get_weather(city='Lima')] anywhere in the message, known tools only
    *angle_calls.ROWS,  # <get_weather(city='Lima'), …>: pythonic calls between a bare < and > (BitAgent in BFCL)
    *shell_prompt.ROWS,  # $ ls -la opening a line, with the one offered tool that runs shell commands
    *run_label.ROWS,  # Run: curl -s https://… opening a line: the $ prompt as a word, the one shell runner's
    *command_line.ROWS,  # web_fetch url="https://…" alone on its line, declared keys only
    *command_argument.ROWS,  # GET https://… alone on its line (+ a JSON payload below), offered tools only
    *request_key.ROWS,  # TOOL: NAME\n{"request": NAME, …} (langroid's tool messages, offered tools only)
    *kv_lines.ROWS,  # TOOL: NAME or [NAME], then KEY: value lines (Orket's legacy notation; offered tools, keys)
    *tool_colon_command.ROWS,  # TOOL:NAME:ARG alone on its line, a second value on the lines after (offered tools)
    *untagged.BULLETED,  # - {"name": …} / 1. {…} opening a line: a call as a list's item, the bullet its markup
    untagged.BARE,  # {"name": …} or [{…}] anywhere in the message, known tools only
    *json_tail.ROWS,  # "NAME", "input": …}: the rest of a call object the prompt opened, opening the message
    *response_header.ROWS,  # ### Response:\n{…}: a template's header of the model's turn before a call, markup
    *llama.SEPARATOR_ROWS,  # ; {"name": …} opening the message: Llama 3's separator before a call, markup
    # -- w-fam2: lenient forms, for offered tools only --
    *codeact.ROWS,  # <execute_bash>\nls alone on its line, to </execute_bash> or the end (OpenHands CodeAct)
    *tool_xml.ROWS,  # <read_file><path>a.py</path></read_file> (Cline, Roo Code)
    *minimax.ANY_TAG_ROWS,  # <call_record tool="read"><parameter name="path">…: the invoke form under any tag
    *typed_action.ROWS,  # <boltAction type="file" filePath="a.js">BODY</boltAction>: type= names the tool (bolt.new)
    untagged.WRAPPED,  # <user>{"name": …}</user>: a tag that is no call tag around a JSON call
    untagged.WRAPPED_CALL,  # <response><tools>{…}</tools></response>: …or around a tagged call
    untagged.XML_DECLARATION,  # <?xml version="1.0"?> before a call or a tag around one: its markup
    *unused_tokens.ROWS,  # [UNUSED_TOKEN_144][UNUSED_TOKEN_141]{…}[UNUSED_TOKEN_143]: unrendered special tokens
    untagged.INSIDE_TAG,  # <functioncall {"name": …}>: a JSON call inside a tag's brackets
    *react.ROWS,  # Action: NAME / Action Input: {…} or a string (ReAct, LangChain)
    *orphan_closer.ROWS,  # {"name": "get_weather", …}</tool_call> mid-message: the opener left out
    *at_call.ROWS,  # gptme: @NAME(CALL_ID): {…} (offered tools only)
    *mistral.BARE_ROWS,  # NAME[ARGS]{…} opening the message, [TOOL_CALLS] left out (offered tools only)
    *bracket_action.ROWS,  # Action 1: Search[entity], search[query] opening the message (ReAct paper, WebShop)
    *bracket_command.ROWS,  # Sure [look left] let me see: an offered tool of one string and its words in brackets
    *minimax_bracket.ROWS,  # [TOOL_CALL]{tool => "NAME", args => {--k "v"}}[/TOOL_CALL] (MiniMax M2.x, offered tools)
    *name_first.ROWS,  # Functionary v3.2: >>>NAME\n{…}, or NAME\n{…} opening the message (offered tools only)
    *inkling.ROWS,  # <|message_model|><|content_text|>TEXT<|end_message|>: Inkling's frames of text, markup
    *token_call.ROWS,  # <|…|>NAME<|…|>{…} and functions.NAME:0 {…}: a name between special tokens (offered tools)
    *reasoning.ORPHAN_CLOSERS,  # plan</think>{…}: a reasoning closer with no block open is markup
    *reasoning.ANSWER,  # </think>\n<answer>…</answer>: the reply's wrapper, markup where the message begins and ends
    *special_tokens.TURN_END_ROWS,  # …may have.<|eot_id|>: the end of the model's turn after text is markup
    *attribute_call.OPENED_ROWS,  # <tool_use server="S"> ending the output: a call cut off at its opener (last resort)
]
"""Every family a `StreamParser` reads unless given its own list: THE table."""


def _reader_by_body(ctx: Context, block: Block, match: regex.Match[str]) -> Reader:
    """The reader of a row that names none: a user's own row (``shim.Dialect("act", "<act>", "</act>",
    body="json")``), chosen by its ``body``. Every row of the table names its reader."""
    dialect = block.dialect
    assert dialect is not None
    if dialect.kind == "reasoning":
        return reasoning.open_reasoning(ctx, block, match)
    if "name" in match.groupdict():
        return qwen_xml.XmlBody(ctx, block, match.group("name"))
    if dialect.body == "mistral":
        return mistral.MistralStart(ctx, block)
    return tagged_json.TaggedStart(ctx, block)


def reader_for(dialect: Dialect) -> ReaderFactory:
    return dialect.reader or _reader_by_body


def rows_for(dialects: Sequence[Dialect] | None, tools: ToolIndex) -> list[Dialect]:
    """The rows one parser uses: ``dialects`` (default: the table) with openers built from ``tools`` where a
    row says so. A list without untagged rows still gets the table's (they need offered tools anyway)."""
    rows = list(DEFAULT_DIALECTS if dialects is None else dialects)
    if not any(d.kind == "untagged" for d in rows):
        rows += [d for d in DEFAULT_DIALECTS if d.kind == "untagged"]
    return list(_resolved(rows, tools))


def _resolved(rows: list[Dialect], tools: ToolIndex) -> Iterator[Dialect]:
    for row in rows:
        if row.open_for_tools is None:
            yield row
        elif tools and (pattern := row.open_for_tools(tools)):
            words = row.words_for_tools(tools) if row.words_for_tools is not None else row.words
            first = "".join(sorted({w[0] for w in words})) if words else row.first
            yield replace(row, open=pattern, open_for_tools=None, built_for_tools=True, words=words, first=first)


def register_dialect(dialect: Dialect) -> None:
    """Add a row to the table used by every parser created afterwards (replacing one of the same name).

    Raises:
        ValueError: a pattern does not compile.
    """
    try:
        dialect.compiled_open()
        dialect.compiled_close()
    except regex.error as exc:
        raise ValueError(f"dialect {dialect.name!r} has an invalid pattern: {exc}") from None
    DEFAULT_DIALECTS[:] = [d for d in DEFAULT_DIALECTS if d.name != dialect.name] + [dialect]
