"""Greek articles agree with the bot's own masculine names (the AI, the hot-seat friend); a person's name,
whose gender the bot does not know, keeps "ο/η"."""

from __future__ import annotations

from bot.i18n import render, translate
from bot.i18n.greek_names import cases


def test_the_ai_and_the_friend_take_a_masculine_article_in_every_case() -> None:
    assert render("Ο/Η {player} έφερε 6-6", "el", player="AI (medium)") == "Ο Υπολογιστής (μέτριο) έφερε 6-6"
    assert render("Προκαλείς τον/την {opponent}", "el", opponent="Φίλος") == "Προκαλείς τον Φίλο"
    assert render("η σειρά του/της {player}", "el", player="AI (hard)") == "η σειρά του Υπολογιστή (δύσκολο)"
    assert render("{a} εναντίον {b}", "el", a="Εσύ", b="Φίλος") == "Εσύ εναντίον του Φίλου"
    assert render("Ανάλυση από {judge}", "el", judge="AI (expert)") == "Ανάλυση από τον Υπολογιστή (έμπειρο)"


def test_a_person_s_name_and_english_are_left_as_they_were() -> None:
    assert render("Ο/Η {player} έφερε 6-6", "el", player="Νίκος") == "Ο/Η Νίκος έφερε 6-6"
    said = render("τον/την {opponent} εναντίον {b}", "el", opponent="Maria", b="Eleni")
    assert said == "τον/την Maria εναντίον Eleni"
    assert translate("resigned", "en", player="AI (medium)", points=2).startswith("AI (medium) resigns")
    assert cases("Φιλοσ", ("Φίλος",)) is None and cases("Φίλος", ("Φίλος",)) == ("Φίλο", "Φίλου")
