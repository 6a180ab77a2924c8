"""The slash commands the bot registers with Telegram's setMyCommands, described in English and Greek.

These descriptions are the only text the Telegram frontend owns: everything the bot says in chats
comes translated from the core.
"""

from __future__ import annotations

from telegram import BotCommand

LANGUAGES = ("en", "el")

# command -> (English description, Greek description); the order is the order of Telegram's menu.
COMMANDS: dict[str, tuple[str, str]] = {
    "start": ("Start the bot and see how to play", "Ξεκίνα το bot και δες πώς παίζεται"),
    "help": ("Show the commands", "Δείξε τις εντολές"),
    "rules": ("The rules: /rules fevga|portes|plakoto|tavli", "Οι κανόνες: /rules fevga|portes|plakoto|tavli"),
    "challenge": ("Challenge @someone or anyone, e.g. /challenge @bob tavli 5",
                  "Προκάλεσε @κάποιον ή όποιον θέλει, π.χ. /challenge @bob τάβλι 5"),
    "accept": ("Accept a challenge", "Δέξου μια πρόκληση"),
    "decline": ("Decline a challenge", "Απόρριψε μια πρόκληση"),
    "cancel": ("Cancel your challenge", "Ακύρωσε την πρόκλησή σου"),
    "ai": ("Play the computer, e.g. /ai plakoto hard", "Παίξε με τον υπολογιστή, π.χ. /ai πλακωτό hard"),
    "move": ("Move, e.g. /move 1/7 7/12", "Κίνηση, π.χ. /move 1/7 7/12"),
    "m": ("Short for /move", "Σύντομο για το /move"),
    "board": ("Show the board again", "Δείξε ξανά το ταμπλό"),
    "hint": ("Suggest a move", "Πρότεινε μια κίνηση"),
    "resign": ("Resign the game", "Παραιτήσου από την παρτίδα"),
    "abort": ("Abort a game that has barely started", "Ακύρωσε μια παρτίδα που μόλις ξεκίνησε"),
    "claim": ("Claim the win when the opponent ran out of time", "Διεκδίκησε τη νίκη όταν ο αντίπαλος άργησε"),
    "rematch": ("Play the same opponent again", "Ξαναπαίξε με τον ίδιο αντίπαλο"),
    "top": ("The leaderboard: /top [fevga|portes|plakoto|tavli]", "Η κατάταξη: /top [fevga|portes|plakoto|tavli]"),
    "stats": ("Your rating and results", "Η βαθμολογία και τα αποτελέσματά σου"),
    "mygames": ("Your running games in every chat, with links", "Οι παρτίδες σου σε εξέλιξη παντού, με συνδέσμους"),
    "export": ("Download the game record (.mat)", "Κατέβασε την καταγραφή της παρτίδας (.mat)"),
    "replay": ("An animated replay of the last game", "Κινούμενη επανάληψη της τελευταίας παρτίδας"),
    "analyze": ("How well each side played your last game", "Πόσο καλά έπαιξε ο καθένας την τελευταία παρτίδα"),
    "h2h": ("Your record against a player: /h2h @player", "Το ιστορικό σου με έναν παίκτη: /h2h @παίκτης"),
    "dice": ("Are the dice fair? Your rolls counted", "Είναι τίμια τα ζάρια; Οι ζαριές σου μετρημένες"),
    "puzzle": ("A puzzle; /puzzle 1/7 7/12 answers it", "Ένας γρίφος· το /puzzle 1/7 7/12 τον απαντά"),
    "lang": ("Language: /lang en or /lang el", "Γλώσσα: /lang en ή /lang el"),
    "ping": ("Turn pings: /ping on|off, /ping dm on|off", "Ειδοποιήσεις σειράς: /ping on|off, /ping dm on|off"),
    "tournament": ("This group's tournament: /tournament join", "Το τουρνουά της ομάδας: /tournament join"),
}
ONLY_PRIVATE = frozenset({"start"})  # Telegram sends /start when a private chat opens
ONLY_GROUPS = frozenset({"tournament"})  # tournaments are run in groups
WHERE = ("all", "private", "groups")


def bot_commands(language: str, where: str = "all") -> list[BotCommand]:
    """The command menu in ``language`` ('en' or 'el'; anything else gets English) for private chats, groups
    or ``all`` (the default menu: every command)."""
    index = LANGUAGES.index(language) if language in LANGUAGES else 0
    left_out = {"private": ONLY_GROUPS, "groups": ONLY_PRIVATE}.get(where, frozenset())
    return [BotCommand(name, texts[index]) for name, texts in COMMANDS.items() if name not in left_out]
