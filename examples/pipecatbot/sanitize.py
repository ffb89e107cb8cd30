"""Strip media from a chat context before it is sent to the harness.

The rules (from the repository's reference notes on the RTVI handlers):
a key is a media key when its lower-cased text contains "audio", "image"
or "file"; bytes, and strings starting with "data:", become the tag of the
nearest enclosing media key ("<audio>", "<image>", "<file>", else
"<binary>"); a value under the key ``file_data`` or ``b64_json``, or under
``data`` inside a media container, is replaced whole by its tag. The input
is never changed; key order is kept.
"""


def _tag(key) -> str:
    k = str(key).lower() if key is not None else ""
    for word in ("audio", "image", "file"):
        if word in k:
            return f"<{word}>"
    return "<binary>"


def _is_media_key(key) -> bool:
    k = str(key).lower()
    return "audio" in k or "image" in k or "file" in k


def sanitize(value, media_key=None):
    """Return the sanitised copy of a context (any JSON-like value)."""
    if isinstance(value, (bytes, bytearray)):
        return _tag(media_key)
    if isinstance(value, str):
        return _tag(media_key) if value.startswith("data:") else value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            child = key if _is_media_key(key) else media_key
            lower = str(key).lower()
            if lower in ("file_data", "b64_json") or (lower == "data" and media_key is not None):
                out[key] = _tag(child)
            else:
                out[key] = sanitize(item, child)
        return out
    if isinstance(value, (list, tuple)):
        return [sanitize(item, media_key) for item in value]
    return value
