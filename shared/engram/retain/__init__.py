"""Retain (DESIGN §5): texts or conversations -> deduplicated memory records, atomically.

Modes: ``raw`` stores each text verbatim (no extraction); ``auto`` and ``smart`` drop noise and
extract memories, with the LLM when one is configured and with the rules otherwise or when the
LLM fails or answers off-schema, keeping an explicitly given ``text`` verbatim when nothing is
found (``smart`` runs as a background job unless ``async`` is false; batches of ``items`` use
the rules). In every mode, a memory that reads as an instruction to a model, or an extracted one
that restates an instruction of its source message, is stored ``quarantined`` (see
``engram.screening`` and ``extraction.guard``). Unless ``retain.defer_embedding`` is off, raw texts, events and cases are written
without a vector and embedded in the background (the engine embeds what is pending before any
read), so a batch is acknowledged as soon as it is durable. Dedup: the same normalised text in the same scope is skipped (its id is
deterministic, so a replay is a no-op). For profile, preference, entity, fact and pattern, a
near-duplicate of the same category (cosine ≥ ``dedup_cosine``) is skipped when its text adds
nothing (contained in the existing one) and merged into it otherwise; raw texts, events and
cases append, since "I have 2 cats" and "I have 3 cats" embed almost alike but differ. With an
LLM, candidates that have stored memories above ``prefilter_cosine`` get one batched decision
(create / merge / skip / supersede, see ``extraction.dedup``); a superseded memory stays, with
``valid_until`` and a link to its successor, which links back.

Stages (each testable on hand-built inputs): ``candidates`` (what the request asks to keep) →
``plan`` (each candidate's record, vector, stored twins and LLM decision, then create / skip /
merge / supersede in the request's order) → ``write`` (one transaction, then the index).
"""

from engram.retain.metered import run
from engram.retain.service import fingerprint, retain

__all__ = ["fingerprint", "retain", "run"]
