"""Accounts: sign-up, sign-in, guests and sessions (:mod:`.service`); password hashes, session
tokens and the password policy (:mod:`.auth`); bot accounts' API tokens (:mod:`.apitokens`)."""
