"""Greek articles for the bot's own masculine names: a template says "ο/η {player}" or "τον/την {player}" since a
person's gender is unknown, but the AI ("Υπολογιστής (μέτριο)") and the terminal's hot-seat friend ("Φίλος")
are known nouns, so they get "ο", "τον Υπολογιστή", "του Φίλου", "εναντίον του Υπολογιστή"."""

from __future__ import annotations

from typing import Any

# (before the field, after the rewrite: the name declined where the article asks it); {f} is the field's name
FORMS = (
    ("Ο/Η {{{f}}}", "Ο {{{f}}}"),
    ("ο/η {{{f}}}", "ο {{{f}}}"),
    ("τον/την {{{f}}}", "τον {{{f}__acc}}"),
    ("του/της {{{f}}}", "του {{{f}__gen}}"),
    ("εναντίον {{{f}}}", "εναντίον του {{{f}__gen}}"),
    ("από {{{f}}}", "από τον {{{f}__acc}}"),
)


def cases(name: str, masculine: tuple[str, ...]) -> tuple[str, str] | None:
    """The accusative and genitive of ``name`` when its first word is one of the ``masculine`` nouns (the AI's
    and the friend's), else None: "Υπολογιστής (μέτριο)" -> ("Υπολογιστή (μέτριο)", "Υπολογιστή (μέτριο)")."""
    head, space, rest = name.partition(" ")
    if head not in masculine:
        return None
    if head.endswith("ής"):
        acc = gen = head[:-1]
    elif head.endswith("ος"):
        acc, gen = head[:-2] + "ο", head[:-2] + "ου"
    else:
        return None
    return acc + space + rest, gen + space + rest


def agree(template: str, args: dict[str, Any], masculine: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """``template`` and ``args`` with the articles before each masculine name made to agree with it (the name
    declined where the article asks for it); anything else as it was."""
    if "{" not in template:
        return template, args
    out = dict(args)
    for field, value in args.items():
        found = cases(value, masculine) if isinstance(value, str) and f"{{{field}}}" in template else None
        if found is None:
            continue
        out[f"{field}__acc"], out[f"{field}__gen"] = found
        for before, after in FORMS:
            template = template.replace(before.format(f=field), after.format(f=field))
    return template, out
