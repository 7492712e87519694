"""The tool-capable chat template and response template given to the local SmolLM2 checkpoint.

SmolLM2's own template renders neither tools nor tool calls. This one keeps SmolLM2's
`<|im_start|>`/`<|im_end|>` turn markers (both are single tokens of its vocabulary) and adds the
Hermes/Qwen conventions: the tools as JSON lines inside `<tools></tools>` in the system turn, each
call as `<tool_call>{"name": ..., "arguments": ...}</tool_call>` and each result as a
`<tool_response>` in a user turn. `RESPONSE_TEMPLATE` is the declarative spec with which
`transformers serve` (through `tokenizer.parse_response`) turns those blocks back into OpenAI
`tool_calls`; without one, a llama-type model's calls come back as plain text.
"""

from __future__ import annotations

from typing import Any

DEFAULT_SYSTEM_PROMPT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"

# Every piece of output is a `{{- '...' }}` expression and every tag trims whitespace, so the
# layout below never leaks into the prompt. `arguments` may arrive as a JSON string (OpenAI wire
# format) or as a dict (transformers' own message format); both render as one JSON object.
CHAT_TEMPLATE = r"""
{%- if messages and messages[0]['role'] == 'system' -%}
  {%- set system = messages[0]['content'] -%}
  {%- set turns = messages[1:] -%}
{%- else -%}
  {%- set system = 'DEFAULT_SYSTEM' -%}
  {%- set turns = messages -%}
{%- endif -%}
{{- '<|im_start|>system\n' + system -}}
{%- if tools -%}
  {{- '\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' -}}
  {{- 'You are provided with function signatures within <tools></tools> XML tags:\n<tools>' -}}
  {%- for tool in tools -%}
    {{- '\n' + (tool | tojson) -}}
  {%- endfor -%}
  {{- '\n</tools>\n\nFor each function call, return a json object with function name and ' -}}
  {{- 'arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n' -}}
  {{- '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>' -}}
{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- for message in turns -%}
  {%- if message['role'] == 'tool' -%}
    {#- Consecutive tool results share one user turn, as Hermes/Qwen-style models expect. -#}
    {%- if loop.first or turns[loop.index0 - 1]['role'] != 'tool' -%}
      {{- '<|im_start|>user' -}}
    {%- endif -%}
    {{- '\n<tool_response>\n' + message['content'] + '\n</tool_response>' -}}
    {%- if loop.last or turns[loop.index0 + 1]['role'] != 'tool' -%}
      {{- '<|im_end|>\n' -}}
    {%- endif -%}
  {%- else -%}
    {{- '<|im_start|>' + message['role'] + '\n' + (message['content'] or '') -}}
    {%- for call in message['tool_calls'] or [] -%}
      {%- set fn = call['function'] if call['function'] is defined else call -%}
      {%- if message['content'] or not loop.first -%}
        {{- '\n' -}}
      {%- endif -%}
      {%- set args = fn['arguments'] if fn['arguments'] is string else fn['arguments'] | tojson -%}
      {{- '<tool_call>\n{"name": "' + fn['name'] + '", "arguments": ' + args + '}\n</tool_call>' -}}
    {%- endfor -%}
    {{- '<|im_end|>\n' -}}
  {%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
  {{- '<|im_start|>assistant\n' -}}
{%- endif -%}
""".strip().replace("DEFAULT_SYSTEM", DEFAULT_SYSTEM_PROMPT)

RESPONSE_TEMPLATE: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    # Parsing starts after the last assistant opener of the prompt + completion.
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {
            # \s* eats the newline between text and a call, or between two calls, so it does not
            # open an empty content region whose close would overwrite the real content.
            "open_pattern": r"\s*<tool_call>",
            "close": "</tool_call>",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {
            "close_pattern": r"\s*(?:<\|im_end\|>|<\|endoftext\|>)",
            "content": "text",
        },
    },
}
