"""Requests Engram makes to URLs its tenants chose (webhooks): which URLs may be called
(``urls``), how one call is bounded (``sender``) and how their secrets are kept (``sealing``)."""
