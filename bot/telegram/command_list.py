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
    "rules": ("The rules of Fevga", "Οι κανόνες της Φεύγας"),
    "challenge": ("Challenge @someone, a replied-to player, or anyone", "Προκάλεσε @κάποιον ή όποιον θέλει"),
    "accept": ("Accept a challenge", "Δέξου μια πρόκληση"),
    "decline": ("Decline a challenge", "Απόρριψε μια πρόκληση"),
    "cancel": ("Cancel your challenge", "Ακύρωσε την πρόκλησή σου"),
    "ai": ("Play the computer: /ai easy|medium|hard|expert", "Παίξε με τον υπολογιστή: /ai easy|medium|hard|expert"),
    "move": ("Move, e.g. /move 1/7 7/12", "Κίνηση, π.χ. /move 1/7 7/12"),
    "m": ("Short for /move", "Σύντομο για το /move"),
    "board": ("Show the board again", "Δείξε ξανά το ταμπλό"),
    "hint": ("Suggest a move", "Πρότεινε μια κίνηση"),
    "resign": ("Resign the game", "Παραιτήσου από την παρτίδα"),
    "abort": ("Abort a game that has barely started", "Ακύρωσε μια παρτίδα που μόλις ξεκίνησε"),
    "claim": ("Claim the win when the opponent ran out of time", "Διεκδίκησε τη νίκη όταν ο αντίπαλος άργησε"),
    "rematch": ("Play the same opponent again", "Ξαναπαίξε με τον ίδιο αντίπαλο"),
    "top": ("The leaderboard", "Ο πίνακας κατάταξης"),
    "stats": ("Your rating and results", "Η βαθμολογία και τα αποτελέσματά σου"),
    "mygames": ("Your running games in every chat, with links", "Οι παρτίδες σου σε εξέλιξη παντού, με συνδέσμους"),
    "export": ("Download the game record (.mat)", "Κατέβασε την καταγραφή της παρτίδας (.mat)"),
    "replay": ("An animated replay of the last game", "Κινούμενη επανάληψη της τελευταίας παρτίδας"),
    "analyze": ("How well each side played your last game", "Πόσο καλά έπαιξε ο καθένας την τελευταία παρτίδα"),
    "puzzle": ("A puzzle; /puzzle 1/7 7/12 answers it", "Ένας γρίφος· το /puzzle 1/7 7/12 τον απαντά"),
    "lang": ("Language: /lang en or /lang el", "Γλώσσα: /lang en ή /lang el"),
    "ping": ("Turn pings: /ping on|off, /ping dm on|off", "Ειδοποιήσεις σειράς: /ping on|off, /ping dm on|off"),
}


def bot_commands(language: str) -> list[BotCommand]:
    """The command menu in ``language`` ('en' or 'el'; anything else gets English)."""
    index = LANGUAGES.index(language) if language in LANGUAGES else 0
    return [BotCommand(name, texts[index]) for name, texts in COMMANDS.items()]
