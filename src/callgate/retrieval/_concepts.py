"""Concepts of the values a request fills: "500 US dollars" asks for a currency tool.

A request states values ("20000 Japanese Yen", "15 kilometers", "2pm in London") where a
tool's card names the kind of value it takes ("currency", "distance", "time"). Neither
stemming nor stop words bridge that gap; a small table of value words (currencies, units
of measure, clock words), a few value patterns (clock times, coordinates, years, dates)
and the question words that ask for a value ("when": a date, "where": a location, "who":
a person) name the kind, and the query is given that word too, with a lower weight than the
words the user typed (`LexicalSettings.concept_weight`). Only queries get them: a card
already says what it takes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["VALUE_CONCEPTS", "concepts"]

_CURRENCIES = (
    "dollar dollars usd eur euro euros yen jpy pound pounds sterling gbp rupee rupees inr "
    "yuan renminbi rmb cny franc francs chf peso pesos won krw ruble rubles roubles rub "
    "rand zar real reais brl lira krona kronor krone kroner sek nok dkk baht dirham dirhams "
    "dinar dinars ringgit rupiah shekel shekels zloty forint bitcoin btc cad aud nzd hkd sgd"
)
_LENGTHS = (
    "km kilometer kilometers kilometre kilometres mile miles meter meters metre metres "
    "cm centimeter centimeters mm millimeter millimeters inch inches feet foot ft yard yards"
)
_MASSES = (
    "kg kilogram kilograms gram grams mg milligram milligrams lb lbs pound pounds "
    "ounce ounces oz ton tons"
)
_VOLUMES = (
    "liter liters litre litres ml milliliter milliliters gallon gallons cup cups "
    "tablespoon tablespoons teaspoon teaspoons tbsp tsp pint pints quart quarts"
)
_TEMPERATURES = "celsius fahrenheit kelvin"
_CONVERSION = ("convert", "conversion")
_CLOCK = "gmt utc o'clock oclock timezone"
_SYMBOLS = "$ € £ ¥ ₹ ₽ ₩ ₺ ₪ ₿"
_TOKEN = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?|[$€£¥₹₽₩₺₪₿]|\d+(?:[-/.:]\d+)*")
"""Words, currency signs and numbers (`2022-05-01` and `3.5` are one number each)."""
_MONTHS = frozenset(
    "january february march april may june july august september october november december".split()  # noqa: SIM905
)
_YEAR_WORDS = frozenset({"in", "since", "from", "of", "until", "before", "after"})
_PATTERNS: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (("time",), re.compile(r"\d ?[apAP]\.?[mM]\b")),  # "am" alone is too often "I am"
    (("coordinates", "latitude", "longitude"), re.compile(r"\d\.\d+°? ?[NS]?, ?-?\d{1,3}\.\d")),
    (("date",), re.compile(r"\d{4}-\d\d-\d\d\b")),
)
"""Values written as patterns (clock times, coordinates, years, dates) and their kinds."""


def _table(groups: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Each word and every kind it names ("pound": a currency and a weight)."""
    out: dict[str, tuple[str, ...]] = {}
    for words, kinds in groups.items():
        for word in words.split():
            out[word] = tuple(dict.fromkeys((*out.get(word, ()), *kinds)))
    return out


VALUE_CONCEPTS: Mapping[str, tuple[str, ...]] = _table(
    {
        f"{_CURRENCIES} {_SYMBOLS}": ("currency",),
        _LENGTHS: ("distance", "unit"),
        _MASSES: ("weight", "unit"),
        _VOLUMES: ("volume", "unit"),
        _TEMPERATURES: ("temperature", "unit"),
        _CLOCK: ("time",),
        # A question word names the kind of value the answer is.
        "when": ("date",),
        "where": ("location",),
        "who": ("person",),
    }
)
"""Value words (lower-case, as written) and the kinds of value they name."""


def concepts(text: str) -> list[str]:
    """The kinds of value `text` names, each once (those of value words first, then those
    of written values), and a conversion when it names two values of one kind."""
    found: dict[str, int] = {}
    written: list[tuple[str, ...]] = []
    previous = ""
    for token in _TOKEN.findall(text):
        if token[0].isdigit():
            # A word and the number after it: "December 13" is a date, "in 1800" a year.
            if previous in _MONTHS:
                written.append(("date",))
            elif previous in _YEAR_WORDS and len(token) == 4 and "1500" <= token < "2100":
                written.append(("year",))
            previous = ""
            continue
        previous = token.lower()
        for kind in VALUE_CONCEPTS.get(previous, ()):
            found[kind] = found.get(kind, 0) + 1
    # Two values of one kind ("500 US dollars in Canadian dollars", "ounces in 2 pounds")
    # are most often a conversion between them.
    converts = any(n > 1 for c, n in found.items() if c != "unit")
    written += [kinds for kinds, pattern in _PATTERNS if pattern.search(text)]
    for kinds in written:
        found.update((k, found.get(k, 0) + 1) for k in kinds)
    return [*found, *(_CONVERSION if converts else ())]
