"""Meta CWM tool blocks (`shim.parsing.readers.cwm`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

CWM_SERVE = "facebookresearch/cwm:serve/tools.py@7930e0298bf32aae28cc0e35e18a54c772603364"
VLLM = "vllm-project/vllm:tests/tool_parsers/test_cwm_tool_parser.py@35cef65a8fd1de9729c27f2bcc5ab4877ef4b9c4"
TOOLS = [tool("bash", command="string"), tool("python", code="string"), tool("edit", path="string", diff="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("<tool: bash>\necho hello world\n</tool>", [("bash", {"command": "echo hello world"})], ""),
        (  # the generic block: the first word names the tool, the rest of the body is its input
            '<tool: function>\nbash find . -name "*.py" | xargs grep -n "def f"\n</tool>\n',
            [("bash", {"command": 'find . -name "*.py" | xargs grep -n "def f"'})],
            "",
        ),
        (  # variant: a body over several lines kept as written, spaces around the name
            "<tool:  python >\nfor i in range(2):\n    print(i)\n</tool>",
            [("python", {"code": "for i in range(2):\n    print(i)"})],
            "",
        ),
        (  # variant: a body written as a JSON object of the tool's parameters
            '<tool: edit>\n{"path": "a.py", "diff": "-x\\n+y"}\n</tool> Done.',
            [("edit", {"path": "a.py", "diff": "-x\n+y"})],
            "Done.",
        ),
        (  # variant: the reasoning before it, text after
            "<think>One step.</think>\n<tool: bash>\nls\n</tool>\nListing.",
            [("bash", {"command": "ls"})],
            "Listing.",
        ),
    ],
)
def test_a_cwm_tool_block_is_the_tools_one_input(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str
) -> None:
    check(Real(CWM_SERVE if "function" not in text else VLLM, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "CWM writes <tool: bash> then the command, then </tool>.",  # named in prose, no closer after a body
        "<tool: shell>\nls\n</tool>",  # no offered tool of that name: text
        "<tool: function>\nrm -rf /\n</tool>",  # the first word names no offered tool
        "<tool: edit>\njust some text\n</tool>",  # a tool of two parameters takes no one raw input
        "For example:\n<tool: bash>\nls\n</tool>",  # presented as an example
        "<tool: bash>\nls",  # cut off before its closer
        # a tool's specification in a prompt (CWM's SWE-RL system prompt), a README's example
        "Here are the specifications:\n\n<tool: bash>\n[command(s)]\n</tool>\nExecutes bash command(s).",
        "Agents call tools:\n\n```\n<tool: bash>\nls -la src/\n</tool>\n```",
    ],
)
def test_a_cwm_block_without_its_evidence_stays_text(text: str) -> None:
    result = check(Real("written", text, [], tools=TOOLS), visible=False)
    assert result["text"] == text


VLLM_CSM = "vllm-project/vllm:tests/tool_parsers/test_csm_tool_parser.py@f4905e929dca0a72b85b568574763c1a29b036e4"
TERMINAL = [*TOOLS, tool("terminal", command="string")]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # vLLM's CWM parser test: blocks after prose that end the message are its calls
            "preamble\n<tool: function>\nterminal echo hi\n</tool>\n<tool: function>\nterminal echo bye\n</tool>\n",
            [("terminal", {"command": "echo hi"}), ("terminal", {"command": "echo bye"})],
            "preamble",
        ),
        (  # variant: one named block after a sentence, blank lines after it
            "I will list the files.\n\n<tool: bash>\nls -la\n</tool>\n\n\n",
            [("bash", {"command": "ls -la"})],
            "I will list the files.",
        ),
        (  # the shorthand: no `>` after the label, the input on its line (vLLM's test, after an orphan </think>)
            'prefix\n</think> <tool: python import os; print(os.listdir("_pytest")) </tool>\n',
            [("python", {"code": 'import os; print(os.listdir("_pytest"))'})],
            "prefix",
        ),
        # variant: the shorthand opening the message, text after it
        ("<tool: bash ls -la </tool> Listing.", [("bash", {"command": "ls -la"})], "Listing."),
        # variant: the shorthand after prose, then a full block
        (
            "Two steps.\n<tool: bash pwd</tool>\n<tool: python>\nprint(1)\n</tool>",
            [("bash", {"command": "pwd"}), ("python", {"code": "print(1)"})],
            "Two steps.",
        ),
    ],
)
def test_cwm_blocks_that_end_the_message_after_prose_and_the_shorthand_are_calls(
    text: str, calls: list[tuple[str, dict[str, str]]], visible: str
) -> None:
    check(Real(VLLM_CSM, text, calls, visible=visible, tools=TERMINAL))


@pytest.mark.parametrize(
    "text",
    [
        # after prose, text follows the blocks: a specification or an example, every block shown
        "Tools:\n<tool: bash>\nls\n</tool>\nruns a command.",
        "Tools:\n<tool: bash>\nls\n</tool>\n<tool: python>\nprint(1)\n</tool>\nThen stop.",
        "Use <tool: python code </tool> to run code.",  # the shorthand named in a sentence
        "Run:\n<tool: shell ls </tool>",  # no offered tool
        "Run:\n<tool: bash ls",  # cut off before its closer
        "Run:\n<tool: bash> ls </tool>",  # neither form: `>` with the input on its line
    ],
)
def test_cwm_blocks_after_prose_that_text_follows_stay_text(text: str) -> None:
    result = check(Real("written", text, [], tools=TERMINAL), visible=False)
    assert result["text"] == text
