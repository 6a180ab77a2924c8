"""Server tournaments (issue 24): pure pairing and standings (:mod:`.pairing`, :mod:`.knockout`)."""
