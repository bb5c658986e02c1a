"""What guards every request before a route sees it: CSRF (:mod:`.csrf`), security headers
(:mod:`.headers`), the body limit (:mod:`.bodylimit`), the slow-client deadline (:mod:`.httpguard`),
and the process's garbage-collector pacing (:mod:`.gcpace`)."""
