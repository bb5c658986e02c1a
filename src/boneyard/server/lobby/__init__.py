"""The lobby: games, creating, listing, joining and starting tables, a person's games
(:mod:`.service`); the bots the site seats (:mod:`.sitebots`); challenges to bot accounts
(:mod:`.challenges`)."""
