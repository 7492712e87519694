"""Tool-call parsing: native calls, Hermes/Qwen tags, bare JSON, and what is not a call."""

from __future__ import annotations

from toolscale.llm.toolcalls import ParsedCall, parse_message


def test_native_calls_keep_the_argument_text_as_written():
    message = {
        "content": None,
        "tool_calls": [
            {"function": {"name": "calculator", "arguments": '{"expression": "1+2"}'}},
            {"function": {"name": "search", "arguments": "{broken"}},
        ],
    }
    assert parse_message(message) == (
        "",
        [ParsedCall("calculator", '{"expression": "1+2"}'), ParsedCall("search", "{broken")],
    )


def test_hermes_tags_are_calls_and_the_rest_is_content():
    content = (
        'Let me compute.\n<tool_call>{"name": "calculator", "arguments": {"expression": "2*3"}}'
        '</tool_call>\n<tool_call>{"name": "read", "parameters": {}}</tool_call>'
    )
    text, calls = parse_message({"content": content})
    assert text == "Let me compute."
    assert calls == [ParsedCall("calculator", '{"expression":"2*3"}'), ParsedCall("read", "{}")]


def test_a_broken_tag_keeps_its_name_and_raw_text_so_the_model_hears_of_it():
    inner = '{"name": "calculator", "arguments": {"expression": "2*3"'
    _, calls = parse_message({"content": f"<tool_call>{inner}</tool_call>"})
    assert calls == [ParsedCall("calculator", inner)]


def test_bare_json_objects_lists_and_fences_are_calls():
    one = '{"name": "calculator", "arguments": {"expression": "4/2"}}'
    assert parse_message({"content": one})[1] == [ParsedCall("calculator", '{"expression":"4/2"}')]
    assert len(parse_message({"content": f"[{one}, {one}]"})[1]) == 2
    assert len(parse_message({"content": f"```json\n{one}\n```"})[1]) == 1


def test_text_and_json_without_a_name_are_final_answers():
    for content in ("The answer is 42.", '{"answer": "42", "confidence": 0.9}', "[1, 2]", ""):
        assert parse_message({"content": content}) == (content, [])
