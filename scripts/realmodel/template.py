#!/usr/bin/env python3
"""Write a model's chat template for llama.cpp's tool-call parser.

usage: template.py MODEL.gguf OUT.jinja

Reads the GGUF file's own chat template (its tokenizer.chat_template key)
and changes two things, each checked to apply:

- the <tool_call> tags become <function_call>: the 0.5B Qwen model never
  emits its <tool_call> special token, but writes <function_call> ...
  </function_call> as plain text, which llama.cpp's Hermes-style parser
  turns into tool_calls (constraining the name and arguments to the tools'
  schemas once the tag is written);
- the instruction saying how to call a function moves from the end of the
  system message to a system message of its own just before the
  assistant's turn: after a tau2 policy of ~3,000 tokens and 17 tools the
  model forgets it (no call in any of our tries), right before its turn it
  calls (with a real model's arguments, which may be wrong).

The template is the model's own data; nothing of it is kept in the
repository.
"""
import struct
import sys

# GGUF value types (gguf.md): the size of each fixed-size one.
FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
STRING, ARRAY = 8, 9


def read_string(f):
    (n,) = struct.unpack("<Q", f.read(8))
    return f.read(n)


def skip_value(f, typ):
    if typ in FIXED:
        f.seek(FIXED[typ], 1)
    elif typ == STRING:
        (n,) = struct.unpack("<Q", f.read(8))
        f.seek(n, 1)
    elif typ == ARRAY:
        item, count = struct.unpack("<IQ", f.read(12))
        if item in FIXED:
            f.seek(FIXED[item] * count, 1)
        else:
            for _ in range(count):
                skip_value(f, item)
    else:
        raise ValueError(f"unknown GGUF value type {typ}")


def chat_template(path):
    with open(path, "rb") as f:
        if f.read(4) != b"GGUF":
            raise ValueError(f"{path} is not a GGUF file")
        _version, _tensors, kvs = struct.unpack("<IQQ", f.read(20))
        for _ in range(kvs):
            key = read_string(f).decode()
            (typ,) = struct.unpack("<I", f.read(4))
            if key == "tokenizer.chat_template" and typ == STRING:
                return read_string(f).decode()
            skip_value(f, typ)
    raise ValueError(f"{path} has no chat template")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    text = chat_template(sys.argv[1])
    if "<tool_call>" not in text:
        sys.exit("the template has no <tool_call> tag to rename")
    text = text.replace("<tool_call>", "<function_call>").replace("</tool_call>", "</function_call>")
    text = move_instruction(text)
    with open(sys.argv[2], "w") as f:
        f.write(text)


# The function-call instruction as the template writes it (a Jinja string
# literal), and where the assistant's turn starts.
INSTRUCTION = (
    '\\n\\nFor each function call, return a json object with function name and arguments within '
    '<function_call></function_call> XML tags:\\n<function_call>\\n{\\"name\\": <function-name>, '
    '\\"arguments\\": <args-json-object>}\\n</function_call>'
)
GENERATION = "{%- if add_generation_prompt %}\n    {{- '<|im_start|>assistant\\n' }}"


def move_instruction(text):
    """Moves the function-call instruction next to the assistant's turn."""
    if text.count(INSTRUCTION) != 1 or text.count(GENERATION) != 1:
        sys.exit("the template's function-call instruction or generation prompt is not where expected")
    text = text.replace(INSTRUCTION, "")
    reminder = (
        "{%- if add_generation_prompt %}\n"
        "    {%- if tools %}\n"
        "        {{- '<|im_start|>system\\nTo call a function, return a json object with function name and arguments "
        "within <function_call></function_call> XML tags:\\n<function_call>\\n{\"name\": <function-name>, "
        "\"arguments\": <args-json-object>}\\n</function_call><|im_end|>\\n' }}\n"
        "    {%- endif %}\n"
        "    {{- '<|im_start|>assistant\\n' }}"
    )
    return text.replace(GENERATION, reminder)


if __name__ == "__main__":
    main()
