"""Engram under agent frameworks, each adapter on the Python SDK (``engram.client``) alone.

``engram.integrations.langgraph``: a LangGraph ``BaseStore`` (extra ``engram-recall[langgraph]``).
"""
