"""The games a player plays: what they told (their records, kept in files, corrected),
and the coach's session that follows a game move by move. It asks the judgement
(``analysis``) for advice; the judgement never reads a record."""
