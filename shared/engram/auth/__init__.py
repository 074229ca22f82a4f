"""API keys and the operator token (DESIGN §9): the key format and the key service
(``engram.auth.keys``). The record a key store keeps and the principal a verified key speaks for
are shared vocabulary (``engram.records``); reading the presented key from a request's headers is
the HTTP layer's (``engram_http.headers``), and the secret files are an adapter's
(``engram.adapters.private_files``)."""
