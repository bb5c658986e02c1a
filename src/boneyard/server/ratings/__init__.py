"""Ratings: OpenSkill per game and player count (:mod:`.store`), and the leaderboard people read
(:mod:`.leaderboard`)."""
