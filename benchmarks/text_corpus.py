"""Build the text-mode extraction corpus: model outputs with the calls they contain.

Calls and tool declarations come from BFCL v4 (Apache-2.0; `../shared/data/bfcl`). Each
case wraps the gold calls the way open-weight models write them without native tool
calling (bare JSON, fenced code, Hermes `<tool_call>`, Mistral `[TOOL_CALLS]`, Llama
`<|python_tag|>`, pythonic lists, Qwen3-Coder XML, prose around) and breaks the JSON the
way they break it (trailing commas, single quotes, missing brackets, comments, unquoted
keys, Python literals, numbers as strings, double-encoded arguments). Some cases mention
JSON or code but call no known tool: they must stay text.

Deterministic: the same data and seed give the same file.

    python benchmarks/text_corpus.py   # writes tests/dialects/data/text_corpus.jsonl
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import ROOT, data_dir

OUT = ROOT / "tests" / "dialects" / "data" / "text_corpus.jsonl"
SEED = 20260301
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple")
PER_CATEGORY = 85
NEGATIVES = 40

Call = tuple[str, dict[str, Any]]


def main() -> None:
    rng = random.Random(SEED)
    cases = []
    for category in CATEGORIES:
        entries = _entries(category)
        for entry in rng.sample(entries, min(PER_CATEGORY, len(entries))):
            cases.append(_case(entry, rng))
    for i in range(NEGATIVES):
        entry = rng.choice(_entries("simple_python"))
        cases.append(_negative(entry, i, rng))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w") as fh:
        for case in cases:
            fh.write(json.dumps(case, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)}")


def _entries(category: str) -> list[dict[str, Any]]:
    root = data_dir() / "bfcl"
    questions = _jsonl(root / f"BFCL_v4_{category}.json")
    answers = {a["id"]: a for a in _jsonl(root / "possible_answer" / f"BFCL_v4_{category}.json")}
    out = []
    for q in questions:
        calls = _gold(answers[q["id"]]["ground_truth"])
        if calls:
            out.append({"id": q["id"], "functions": q["function"], "calls": calls})
    return out


def _gold(truth: list[dict[str, Any]]) -> list[Call] | None:
    calls: list[Call] = []
    for item in truth:
        ((name, params),) = item.items()
        args = {}
        for key, allowed in params.items():
            if not allowed or allowed[0] == "":
                continue
            args[key] = allowed[0]
        calls.append((name, args))
    return calls


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# --- how models write calls -------------------------------------------------------------


def _case(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    calls: list[Call] = [(n, a) for n, a in entry["calls"]]
    written = [(_written_name(n, rng), a) for n, a in calls]
    form = rng.choice(list(FORMS))
    breaks = _breaks(form, rng)
    APPLIED.clear()
    output = FORMS[form](written, breaks, rng)
    effective = sorted(APPLIED | {b for b in breaks if b in _VALUE_BREAKS})
    return {
        "id": entry["id"],
        "form": form,
        "breaks": effective,
        "tools": entry["functions"],
        "output": output,
        "expected": [{"name": _canonical(n), "arguments": a} for n, a in calls],
    }


def _written_name(name: str, rng: random.Random) -> str:
    # The prompt lists canonical names (dots become `_`); some models copy the source's.
    return name if rng.random() < 0.3 else _canonical(name)


def _canonical(name: str) -> str:
    return name.replace(".", "_")


def _breaks(form: str, rng: random.Random) -> list[str]:
    if form in ("pythonic_list", "pythonic_prose", "qwen_xml"):
        return []
    count = rng.choices([0, 1, 2], weights=[3, 5, 2])[0]
    return sorted(rng.sample(BREAKS, count))


APPLIED: set[str] = set()
"""The breaks that changed some text of the case being built (a break can be a no-op)."""


def _dump(value: Any, breaks: list[str]) -> str:
    text = json.dumps(value, ensure_ascii=False)
    steps = {
        "single_quotes": lambda t: _single_quotes(value),
        "python_literals": lambda t: re.sub(
            r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", t))
        ),
        "unquoted_keys": lambda t: re.sub(r'"([A-Za-z_][A-Za-z0-9_]*)":', r"\1:", t),
        "trailing_comma": lambda t: re.sub(r"(\S)\}$", r"\1,}", t),
        "comment": lambda t: t[:-1] + " // done\n}" if t.endswith("}") else t + " // done",
        "truncated": lambda t: re.sub(r"[}\]]{1,2}$", "", t),
    }
    for name, step in steps.items():
        if name in breaks:
            new = step(text)
            if new != text:
                APPLIED.add(name)
            text = new
    return text


def _single_quotes(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{_single_quotes(k)}: {_single_quotes(v)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_single_quotes(v) for v in value) + "]"
    return json.dumps(value)


_VALUE_BREAKS = ("numbers_as_strings", "stringified_arguments")


def _args(args: dict[str, Any], breaks: list[str]) -> Any:
    if "numbers_as_strings" in breaks:
        args = {
            k: str(v) if isinstance(v, int) and not isinstance(v, bool) else v
            for k, v in args.items()
        }
    if "stringified_arguments" in breaks:
        return json.dumps(args)
    return args


def _objects(calls: list[Call], breaks: list[str], key: str = "arguments") -> list[str]:
    return [_dump({"name": n, key: _args(a, breaks)}, breaks) for n, a in calls]


def _bare_object(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    if len(calls) == 1:
        return _objects(calls, breaks)[0]
    return _dump([{"name": n, "arguments": _args(a, breaks)} for n, a in calls], breaks)


def _hermes(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    blocks = [f"<tool_call>\n{o}\n</tool_call>" for o in _objects(calls, breaks)]
    if rng.random() < 0.3:
        blocks[-1] = blocks[-1].removesuffix("\n</tool_call>")
    return rng.choice(PREFACES) + "\n".join(blocks)


def _fenced(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    lang = rng.choice(["json", "", "tool_call"])
    body = (
        "\n".join(_objects(calls, breaks))
        if rng.random() < 0.5
        else _bare_object(calls, breaks, rng)
    )
    return f"{rng.choice(PREFACES)}```{lang}\n{body}\n```\n{rng.choice(AFTERWORDS)}"


def _prose(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    parts = [rng.choice(PREFACES)]
    for obj in _objects(calls, breaks):
        parts.append(f"{obj}\n")
    parts.append(rng.choice(AFTERWORDS))
    return "".join(parts)


def _mistral(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    if rng.random() < 0.5:
        items = [{"name": n, "arguments": _args(a, breaks)} for n, a in calls]
        return "[TOOL_CALLS]" + _dump(items, breaks)
    return "".join(f"[TOOL_CALLS]{n}{_dump(_args(a, breaks), breaks)}" for n, a in calls)


def _llama(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    tag = "<|python_tag|>" if rng.random() < 0.6 else ""
    return (
        tag + "; ".join(_objects(calls, breaks, key="parameters")) + rng.choice(["", "<|eom_id|>"])
    )


def _openai_like(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    value = {
        "tool_calls": [
            {"type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for n, a in calls
        ]
    }
    return rng.choice(PREFACES) + _dump(value, breaks)


def _pythonic_list(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    return "[" + ", ".join(_py_call(n, a) for n, a in calls) + "]"


def _pythonic_prose(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    if rng.random() < 0.5:
        body = "\n".join(_py_call(n, a) for n, a in calls)
        return f"{rng.choice(PREFACES)}```python\n{body}\n```"
    return rng.choice(PREFACES) + " and ".join(_py_call(n, a) for n, a in calls) + "."


def _py_call(name: str, args: dict[str, Any]) -> str:
    return f"{name}(" + ", ".join(f"{k}={v!r}" for k, v in args.items()) + ")"


def _qwen_xml(calls: list[Call], breaks: list[str], rng: random.Random) -> str:
    blocks = []
    for name, args in calls:
        params = "".join(
            f"<parameter={k}>\n{_xml_value(v)}\n</parameter>\n" for k, v in args.items()
        )
        blocks.append(f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>")
    return "\n".join(blocks)


def _xml_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


FORMS = {
    "bare_json": _bare_object,
    "hermes": _hermes,
    "fenced": _fenced,
    "prose": _prose,
    "mistral": _mistral,
    "llama": _llama,
    "openai_like": _openai_like,
    "pythonic_list": _pythonic_list,
    "pythonic_prose": _pythonic_prose,
    "qwen_xml": _qwen_xml,
}
BREAKS = [
    "trailing_comma",
    "single_quotes",
    "truncated",
    "comment",
    "unquoted_keys",
    "python_literals",
    "numbers_as_strings",
    "stringified_arguments",
]
PREFACES = [
    "",
    "Sure! ",
    "Let me look that up.\n",
    "I'll use the tools for this.\n\n",
    "To answer, I need to call a function:\n",
]
AFTERWORDS = [
    "",
    "Let me know if you need anything else.",
    "I'll report back with the results.",
    "(waiting for the result)",
]


# --- text that is not a call -----------------------------------------------------------

NEGATIVE_TEMPLATES = [
    'Here is an example configuration in JSON: {{"debug": true, "level": {n}}}. You can adapt it.',
    'The API returns something like ```json\n{{"status": "ok", "count": {n}}}\n```',
    "I don't need a tool for this: the answer is {n}.",
    "You could call it like this in Python: print(sum([1, 2, {n}]))",
    '<tool_call>\n{{"name": "unknown_tool_{n}", "arguments": {{}}}}\n</tool_call>',
    "The function {name} needs a parameter, but I can answer directly: {n}.",
    '{{"name": "search_web", "arguments": {{"q": "weather {n}"}}}}',
    "Use a JSON array like [1, 2, {n}] to list the values.",
]


def _negative(entry: dict[str, Any], i: int, rng: random.Random) -> dict[str, Any]:
    template = NEGATIVE_TEMPLATES[i % len(NEGATIVE_TEMPLATES)]
    name = entry["functions"][0]["name"]
    output = template.format(n=rng.randint(2, 99), name=name)
    return {
        "id": f"negative_{i}",
        "form": "no_call",
        "breaks": [],
        "tools": entry["functions"],
        "output": output,
        "expected": [],
    }


if __name__ == "__main__":
    main()
