"""Tenants: who a call acts for (``tenancy``), the operator's administration of tenants and keys
(``admin``, ``admin_models``) and tenant-wide work in resumable steps (``steps``)."""
