"""Metering: per-tenant, per-day usage counters and the budgets they are checked against
(``counters``)."""
