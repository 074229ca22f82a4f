"""Forget (DESIGN §8): hard deletes by ids, by query, by filter or a whole scope, with a receipt.

``service``: ``forget`` and ``delete`` as a handler calls them (metered, scopes narrowed);
``deletion``: the work.
"""
