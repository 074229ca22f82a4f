"""Per-tenant webhooks (the embedded default's events out): endpoints and signatures
(``endpoints``), the dispatcher that sends the outbox (``dispatch``), which URLs may be called
(``urls``), how one call is bounded (``sender``) and how their secrets are kept (``sealing``)."""
