"""How much of a model's text a run carries forward and keeps (the cache always keeps every reply whole)."""

#: default of ``--max-reply-chars``: what an episode's history (and its record) keeps of one reply's action
MAX_REPLY_CHARS = 2000
#: what a prompt shows of one observation at most (the worlds' longest are ~12,000 characters); an env that
#: echoes a huge action back in its feedback cannot grow the prompt past this
MAX_OBSERVATION_CHARS = 20_000
#: what ``requests.jsonl`` keeps of one prompt message or reply
LOGGED_TEXT_CHARS = 50_000
