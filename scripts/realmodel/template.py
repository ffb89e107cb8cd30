#!/usr/bin/env python3
"""Write a model's chat template for llama.cpp's tool-call parser.

usage: template.py MODEL.gguf OUT.jinja

Reads the GGUF file's own chat template (its tokenizer.chat_template key)
and renames the <tool_call> tags to <function_call>: the 0.5B Qwen model
never emits its <tool_call> special token, but writes <function_call>
... </function_call> as plain text, which llama.cpp's Hermes-style parser
turns into tool_calls (constraining the name and arguments to the tools'
schemas once the tag is written). The template is the model's own data;
nothing of it is kept in the repository.
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
    with open(sys.argv[2], "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
