"""The Discord frontend's own words: slash-command descriptions and a few widget texts, in en and el.

Everything else a player reads comes translated from the core (``Reply.text``). Descriptions are
``app_commands.locale_str`` with a ``key`` so ``CommandTranslator`` can give Discord the Greek ones.
"""

from __future__ import annotations

from discord import Locale, app_commands

# key -> (English, Greek). Slash descriptions must be 1-100 characters.
TEXT: dict[str, tuple[str, str]] = {
    "group": ("Play tavli: Fevga, Portes, Plakoto", "Παίξε τάβλι: Φεύγα, Πόρτες, Πλακωτό"),
    "help": ("How to play and what to type", "Πώς παίζεται και τι να γράψεις"),
    "help.topic": ("A command to explain", "Εντολή για εξήγηση"),
    "rules": ("The rules of a game: Fevga, Portes, Plakoto, tavli", "Οι κανόνες: Φεύγα, Πόρτες, Πλακωτό, τάβλι"),
    "game": ("Which game (default: this server's game)", "Ποιο παιχνίδι (προεπιλογή: του διακομιστή)"),
    "game.fevga": ("Fevga", "Φεύγα"),
    "game.portes": ("Portes", "Πόρτες"),
    "game.plakoto": ("Plakoto", "Πλακωτό"),
    "game.tavli": ("Tavli: Portes, Plakoto, Fevga in turn", "Τάβλι: Πόρτες, Πλακωτό, Φεύγα με τη σειρά"),
    "challenge": ("Challenge a member (or anyone) to a game", "Προκάλεσε ένα μέλος (ή όποιον θέλει) σε παρτίδα"),
    "challenge.user": ("Who to challenge; leave empty for an open challenge", "Ποιον προκαλείς· κενό για ανοιχτή"),
    "challenge.points": ("Match length in points (1-25)", "Μήκος αγώνα σε πόντους (1-25)"),
    "challenge.unlock": ("Point that must be passed first (13 or 14)", "Σημείο που περνιέται πρώτα (13 ή 14)"),
    "challenge.strict": ("Strict start: first checker must leave the start quarter", "Αυστηρό ξεκίνημα"),
    "accept": ("Accept a challenge", "Αποδέξου μια πρόκληση"),
    "decline": ("Decline a challenge", "Απόρριψε μια πρόκληση"),
    "cancel": ("Cancel your challenge", "Ακύρωσε την πρόκλησή σου"),
    "challenge_id": ("Challenge id (only if there are several)", "Κωδικός πρόκλησης (αν είναι πολλές)"),
    "play": ("Play against the computer", "Παίξε με τον υπολογιστή"),
    "play.level": ("How strong the computer plays", "Πόσο δυνατά παίζει ο υπολογιστής"),
    "level.easy": ("easy", "εύκολο"),
    "level.medium": ("medium", "μέτριο"),
    "level.hard": ("hard", "δύσκολο"),
    "level.expert": ("expert", "έμπειρο"),
    "play.points": ("Match length in points (1-25)", "Μήκος αγώνα σε πόντους (1-25)"),
    "move": ("Make a move, e.g. 1/7 7/12", "Κάνε κίνηση, π.χ. 1/7 7/12"),
    "move.play": ("Your play: from/to pairs, e.g. 1/7 7/12, or pass", "Η κίνησή σου: από/προς, π.χ. 1/7 7/12"),
    "undo": ("Take back the last checker you moved", "Πάρε πίσω το τελευταίο πούλι"),
    "confirm": ("Confirm your move", "Επιβεβαίωσε την κίνηση"),
    "board": ("Show the board of your game here", "Δείξε εδώ το ταμπλό της παρτίδας σου"),
    "hint": ("Suggest a move", "Πρότεινε κίνηση"),
    "resign": ("Resign the game", "Παραιτήσου από την παρτίδα"),
    "resign.match": ("Resign the whole match", "Παραιτήσου από όλο τον αγώνα"),
    "abort": ("Abort a game that has not really started", "Ακύρωσε παρτίδα που δεν ξεκίνησε"),
    "claim": ("Claim the win when your opponent ran out of time", "Διεκδίκησε τη νίκη όταν ο αντίπαλος άργησε"),
    "rematch": ("Play again with the same opponent", "Ξαναπαίξε με τον ίδιο αντίπαλο"),
    "top": ("Leaderboard of this server", "Κατάταξη αυτού του διακομιστή"),
    "top.scope": ("This server or everyone", "Αυτός ο διακομιστής ή όλοι"),
    "top.count": ("How many players to list", "Πόσους παίκτες να δείξει"),
    "stats": ("Rating and record of a player", "Βαθμολογία και ιστορικό παίκτη"),
    "stats.user": ("Whose stats (default: yours)", "Ποιανού (προεπιλογή: δικά σου)"),
    "export": ("Download the game record (.mat)", "Κατέβασε την καταγραφή (.mat)"),
    "mygames": ("Your running games in every channel, with links", "Οι παρτίδες σου σε εξέλιξη παντού, με συνδέσμους"),
    "replay": ("Animated replay of the last game", "Κινούμενη επανάληψη της παρτίδας"),
    "analyze": ("How well each side played your last game here", "Πόσο καλά έπαιξε ο καθένας την τελευταία παρτίδα"),
    "analyze.game": ("A game id (default: your last game here)", "Κωδικός παρτίδας (προεπιλογή: η τελευταία σου)"),
    "lang": ("Choose the bot's language", "Διάλεξε τη γλώσσα του bot"),
    "lang.code": ("Language", "Γλώσσα"),
    "settings": ("Show or change this server's settings (Manage Server)", "Ρυθμίσεις διακομιστή (Διαχείριση)"),
    "settings.name": ("Setting to change", "Ρύθμιση προς αλλαγή"),
    "settings.value": ("Its new value", "Η νέα τιμή"),
    "ping": ("Be pinged when it is your turn: on, off, dm on, dm off", "Ειδοποίηση όταν είναι η σειρά σου"),
    "ping.setting": ("on, off, or dm on / dm off (also privately)", "on, off, ή dm on / dm off (και ιδιωτικά)"),
    # widget texts
    "ui.step": ("Move a checker…", "Μετακίνησε ένα πούλι…"),
    "ui.failed": ("Something went wrong; please try again.", "Κάτι πήγε στραβά· δοκίμασε ξανά."),
    "ui.cannot_post": ("I cannot post in #{channel} (a permission is missing): ask an admin to let me send messages "
                       "there. Your command was: {line}",
                       "Δεν μπορώ να γράψω στο #{channel} (λείπει ένα δικαίωμα): ζήτα από έναν διαχειριστή να μου "
                       "επιτρέψει να στέλνω μηνύματα εκεί. Η εντολή σου ήταν: {line}"),
    "ui.board": ("Board", "Ταμπλό"),
    "ui.board_moved": ("The board moved below ⬇", "Το ταμπλό μετακινήθηκε πιο κάτω ⬇"),
    "ui.board_later": (
        "Saved. The board will be updated as soon as Discord lets the bot edit it.",
        "Αποθηκεύτηκε. Ο πίνακας θα ενημερωθεί μόλις το επιτρέψει το Discord.",
    ),
}
LANGUAGES = ("en", "el")


def text(key: str, lang: str = "en") -> str:
    """The frontend's own text ``key`` in ``lang`` (English for any other language)."""
    en, el = TEXT[key]
    return el if lang == "el" else en


def described(key: str) -> app_commands.locale_str:
    """The English description of ``key`` as a translatable string for app commands."""
    return app_commands.locale_str(TEXT[key][0], key=key)


class CommandTranslator(app_commands.Translator):
    """Gives Discord the Greek descriptions; names stay English so typing them works everywhere."""

    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if locale is not Locale.greek or key not in TEXT:
            return None
        return TEXT[key][1]
