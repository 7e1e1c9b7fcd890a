"""Run one fuzz target under atheris (libFuzzer, guided by the coverage of
``mammamia_ref``)::

    python -m tests.fuzz.run TARGET [libFuzzer options] [CORPUS_DIR...]

For example ``python -m tests.fuzz.run state_json -max_total_time=120``. Without a corpus
folder the target's seeds are copied to a temporary one; a dictionary of our formats'
tokens is passed as ``-dict``; every other mutation is a structured edit of the
document the input encodes (see ``mutations.py``). An input that raises anything but the target's
documented errors is a crash: libFuzzer prints the traceback, writes the input to
``crash-*`` and stops. Needs atheris (the ``fuzz`` extra); the pytest tests do not.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import sys
import tempfile
from pathlib import Path

from . import TARGETS

DEFAULTS = ("-timeout=20", "-rss_limit_mb=3072", "-print_final_stats=1")


def _dictionary(tokens: list[bytes], folder: Path) -> Path:
    path = folder / "tokens.dict"
    lines = ['"' + "".join(f"\\x{b:02x}" for b in token) + '"' for token in tokens]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    if len(argv) < 2 or argv[1] not in TARGETS:
        print(f"usage: python -m tests.fuzz.run {{{','.join(TARGETS)}}} [libFuzzer options]",
              file=sys.stderr)
        return 2
    try:
        import atheris
    except ImportError:
        print("atheris is not installed: pip install -e '.[fuzz]'", file=sys.stderr)
        return 2
    name, options = argv[1], argv[2:]
    with atheris.instrument_imports(include=["mammamia_ref"]):
        module = importlib.import_module(f"{__package__}.{name}")
        from .corpus import TOKENS, WORDS
        from .mutations import RandomPicker, decode, encode, mutate_json

    expected, form = module.EXPECTED, module.FORMAT

    def mutate(data: bytes, max_size: int, seed: int) -> bytes:
        """Every other time a structured edit of the document ``data`` encodes (when it
        encodes one); otherwise libFuzzer's own byte mutations."""
        if seed % 2:
            doc = decode(form, data)
            if doc is not None:
                try:
                    out = encode(form, mutate_json(doc, RandomPicker(seed)))
                except Exception:  # a document the encoder cannot write: mutate bytes
                    out = b""
                if 0 < len(out) <= max_size:
                    return out
        return atheris.Mutate(data, max_size)

    def test_one_input(data: bytes) -> None:
        with contextlib.suppress(expected):  # documented refusals; anything else is a crash
            module.fuzz_one(data)

    work = Path(tempfile.mkdtemp(prefix=f"mammamia-fuzz-{name}-"))
    if not any(os.path.exists(option) for option in options):  # else a corpus or inputs to replay
        corpus = work / "corpus"
        corpus.mkdir()
        for seed in module.seeds():
            (corpus / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        options.append(str(corpus))
    if not any(option.startswith("-dict=") for option in options):
        tokens = [*TOKENS, *(word.encode() for word in WORDS)]
        options.insert(0, f"-dict={_dictionary(tokens, work)}")
    chosen = {option.split("=", 1)[0] for option in options}
    options = [o for o in DEFAULTS if o.split("=", 1)[0] not in chosen] + options
    atheris.Setup([argv[0], *options], test_one_input, custom_mutator=mutate)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main())
